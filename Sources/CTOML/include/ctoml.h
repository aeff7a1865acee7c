// A C view of a parsed TOML document: a flat, pre-ordered list of nodes, each with its
// source position, so Swift can report `file:line:column` for any key or value.
#ifndef CTOML_H
#define CTOML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CTOML_TABLE = 0,
    CTOML_ARRAY = 1,
    CTOML_STRING = 2,
    CTOML_INTEGER = 3,
    CTOML_FLOAT = 4,
    CTOML_BOOLEAN = 5,
    CTOML_DATETIME = 6
};

/// One table, array or value. Children follow their parent and are in source order.
typedef struct {
    int32_t kind;
    int32_t parent;          // index of the parent node, -1 for the root table
    int32_t line;            // 1-based position of the value
    int32_t column;
    int32_t key_line;        // 1-based position of the key (members of a table), else 0
    int32_t key_column;
    const char *key;         // member key, NULL for the root and array elements
    size_t key_length;
    const char *text;        // string value, or the source text of a date/time
    size_t text_length;
    int64_t integer;
    double number;
    int32_t boolean;
} ctoml_node;

typedef struct ctoml_document ctoml_document;

/// One more than the most dots one key or table header may hold outside strings (`a.b.c` has
/// 2); more is a parse error. Nesting through inline tables and arrays toml++ bounds (256).
enum { ctoml_max_key_parts = 64 };

/// Parses TOML text; never returns NULL (allocation failure aborts as C++ does).
ctoml_document *ctoml_parse(const char *text, size_t length);
/// Non-zero when the text parsed.
int ctoml_ok(const ctoml_document *doc);
/// The parse error's description, or "" when the text parsed.
const char *ctoml_error_message(const ctoml_document *doc);
int32_t ctoml_error_line(const ctoml_document *doc);
int32_t ctoml_error_column(const ctoml_document *doc);
/// The nodes in pre-order; node 0 is the root table.
size_t ctoml_node_count(const ctoml_document *doc);
const ctoml_node *ctoml_nodes(const ctoml_document *doc);
void ctoml_free(ctoml_document *doc);

#ifdef __cplusplus
}
#endif
#endif
