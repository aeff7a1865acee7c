#ifndef CIDNA_H
#define CIDNA_H
#include <stdint.h>

/// UTS #46 ToASCII with the options of the WHATWG URL Standard's "domain to ASCII" (beStrict
/// false): nontransitional, CheckBidi, CheckJoiners, no STD3 rules, no hyphen or DNS-length checks.
/// Writes the ASCII form (not NUL-terminated) to `out` and returns its length; returns -1 when
/// the name is invalid (then `*errors` holds ICU's UIDNA_ERROR_* bits, 0 for an ICU failure)
/// and -2 when `capacity` is too small.
int32_t cidna_to_ascii(const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors);

/// UTS #46 ToUnicode with the same options; returns the length written, -1 or -2 as above.
int32_t cidna_to_unicode(const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors);

#endif
