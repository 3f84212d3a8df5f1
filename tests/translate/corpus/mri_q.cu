/***************************************************************************
 * MRI-Q in the style of Parboil's mri-q: the k-space samples in __constant__ arrays the host
 * fills chunk by chunk with cudaMemcpyToSymbol (they become buffer parameters), sinf/cosf of a
 * phase, and a kernel that computes the phase magnitudes first.
 ***************************************************************************/
// expect: translated
#include <stdio.h>
#include <math.h>

#define PI 3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define MRI_BLOCK_SIZE 256
#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

__constant__ float ck_x[KERNEL_Q_K_ELEMS_PER_GRID];
__constant__ float ck_y[KERNEL_Q_K_ELEMS_PER_GRID];
__constant__ float ck_z[KERNEL_Q_K_ELEMS_PER_GRID];
__constant__ float ck_phiMag[KERNEL_Q_K_ELEMS_PER_GRID];

__global__ void ComputePhiMag_GPU(const float *phiR, const float *phiI, float *phiMag, int numK)
{
    int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
    if (indexK < numK) {
        float real = phiR[indexK];
        float imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

__global__ void ComputeQ_GPU(int numK, int kGlobalIndex, const float *x, const float *y,
                             const float *z, float *Qr, float *Qi)
{
    float sX, sY, sZ, sQr, sQi;
    // Determine the element of the X arrays computed by this thread
    int xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
    // Read block's X values from global mem to shared mem
    sX = x[xIndex];
    sY = y[xIndex];
    sZ = z[xIndex];
    sQr = Qr[xIndex];
    sQi = Qi[xIndex];
    // Loop over all elements of K in constant mem to compute a partial value for X.
    int kIndex = 0;
    for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex++, kGlobalIndex++) {
        float expArg = PIx2 * (ck_x[kIndex] * sX + ck_y[kIndex] * sY + ck_z[kIndex] * sZ);
        sQr += ck_phiMag[kIndex] * cosf(expArg);
        sQi += ck_phiMag[kIndex] * sinf(expArg);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}

void computeQ_GPU(int numK, int numX, float *x_d, float *y_d, float *z_d, float *kx, float *ky,
                  float *kz, float *phiMag, float *Qr_d, float *Qi_d)
{
    int QGrids = numK / KERNEL_Q_K_ELEMS_PER_GRID;
    if (numK % KERNEL_Q_K_ELEMS_PER_GRID) QGrids++;
    int QBlocks = numX / KERNEL_Q_THREADS_PER_BLOCK;
    if (numX % KERNEL_Q_THREADS_PER_BLOCK) QBlocks++;
    dim3 DimQBlock(KERNEL_Q_THREADS_PER_BLOCK, 1);
    dim3 DimQGrid(QBlocks, 1);
    for (int QGrid = 0; QGrid < QGrids; QGrid++) {
        // Put the tile of K values into constant mem
        int QGridBase = QGrid * KERNEL_Q_K_ELEMS_PER_GRID;
        int numElems = numK - QGridBase < KERNEL_Q_K_ELEMS_PER_GRID ? numK - QGridBase : KERNEL_Q_K_ELEMS_PER_GRID;
        cudaMemcpyToSymbol(ck_x, kx + QGridBase, numElems * sizeof(float), 0);
        cudaMemcpyToSymbol(ck_y, ky + QGridBase, numElems * sizeof(float), 0);
        cudaMemcpyToSymbol(ck_z, kz + QGridBase, numElems * sizeof(float), 0);
        cudaMemcpyToSymbol(ck_phiMag, phiMag + QGridBase, numElems * sizeof(float), 0);
        ComputeQ_GPU<<<DimQGrid, DimQBlock>>>(numK, QGridBase, x_d, y_d, z_d, Qr_d, Qi_d);
    }
}
