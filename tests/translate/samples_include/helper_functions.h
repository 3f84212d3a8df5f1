/* helper_functions.h — a stand-in for the CUDA samples' header of that name (see helper_cuda.h):
 * the corpus uses nothing from it. */
#ifndef GP_CORPUS_HELPER_FUNCTIONS_H
#define GP_CORPUS_HELPER_FUNCTIONS_H
#endif
