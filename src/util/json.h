/* json.h — JSON through cJSON (the chosen library), plus the few things cJSON leaves to us:
 * printing to a stream, parsing a file with a size cap, and finding duplicate keys. */
#ifndef GP_UTIL_JSON_H
#define GP_UTIL_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Prints `j` indented, with a final newline. 0, or -1 if it could not be rendered or written. */
int gp_json_print(FILE *f, const cJSON *j);
/* Whether gp_json_print has written to stdout in this process (so that a command prints at most
 * one JSON document: the CLI's error object only when nothing came before it). */
bool gp_json_printed_to_stdout(void);
/* Parses `text` of `len` bytes (need not be NUL-terminated). NULL with "NAME: reason (byte N)"
 * in err when it is not valid JSON; `name` names the source in the message. */
cJSON *gp_json_parse(const char *name, const char *text, size_t len, char *err, size_t errlen);
/* Reads and parses a file of at most `cap` bytes. NULL with "PATH: reason" in err. */
cJSON *gp_json_parse_file(const char *path, size_t cap, char *err, size_t errlen);
/* True when some object inside `j` has the same key twice; *key gets the first repeated one. */
bool gp_json_find_duplicate_key(const cJSON *j, const char **key);
/* The string member `key` of object `o`, or `fallback`. */
const char *gp_json_str(const cJSON *o, const char *key, const char *fallback);

#endif
