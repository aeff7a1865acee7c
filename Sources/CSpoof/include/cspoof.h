#ifndef CSPOOF_H
#define CSPOOF_H
#include <stdint.h>

// ICU's spoof checker (UTS 39) and the character properties the link-safety rules read. ICU's
// own headers cannot be imported (every function is a versioned macro), so cspoof.c calls ICU
// and this header declares plain functions. Strings are UTF-8 with a length; a negative result
// is a failure: -1 ICU failed or the input is not valid, -2 `capacity` is too small.

/// Checks that failed, as returned by `cspoof_check_label`.
enum {
    CSPOOF_RESTRICTION_LEVEL = 1, // more scripts mixed than "highly restrictive" allows
    CSPOOF_INVISIBLE = 2,         // a repeated nonspacing mark, or an invisible character
    CSPOOF_CHAR_LIMIT = 4,        // a character outside the allowed set
    CSPOOF_MIXED_NUMBERS = 8,     // digits of more than one numbering system
    CSPOOF_HIDDEN_OVERLAY = 16,   // a dot above hidden by a dotted letter (i̇)
    CSPOOF_OTHER_CHECK = 32,      // any other check ICU adds
};

/// UTS 39 restriction levels, as `cspoof_check_label` reports them.
enum {
    CSPOOF_LEVEL_ASCII = 1,
    CSPOOF_LEVEL_SINGLE_SCRIPT = 2,
    CSPOOF_LEVEL_HIGHLY_RESTRICTIVE = 3,
    CSPOOF_LEVEL_MODERATELY_RESTRICTIVE = 4,
    CSPOOF_LEVEL_MINIMALLY_RESTRICTIVE = 5,
    CSPOOF_LEVEL_UNRESTRICTIVE = 6,
};

/// Scripts the rules name, with ICU's UScriptCode values (cspoof.c asserts they agree).
enum {
    CSPOOF_SCRIPT_COMMON = 0, CSPOOF_SCRIPT_INHERITED = 1, CSPOOF_SCRIPT_ARABIC = 2,
    CSPOOF_SCRIPT_ARMENIAN = 3, CSPOOF_SCRIPT_BENGALI = 4, CSPOOF_SCRIPT_BOPOMOFO = 5,
    CSPOOF_SCRIPT_CYRILLIC = 8, CSPOOF_SCRIPT_DEVANAGARI = 10, CSPOOF_SCRIPT_ETHIOPIC = 11,
    CSPOOF_SCRIPT_GEORGIAN = 12, CSPOOF_SCRIPT_GREEK = 14, CSPOOF_SCRIPT_GUJARATI = 15,
    CSPOOF_SCRIPT_GURMUKHI = 16, CSPOOF_SCRIPT_HAN = 17, CSPOOF_SCRIPT_HANGUL = 18,
    CSPOOF_SCRIPT_HEBREW = 19, CSPOOF_SCRIPT_HIRAGANA = 20, CSPOOF_SCRIPT_KANNADA = 21,
    CSPOOF_SCRIPT_KATAKANA = 22, CSPOOF_SCRIPT_LAO = 24, CSPOOF_SCRIPT_LATIN = 25,
    CSPOOF_SCRIPT_MALAYALAM = 26, CSPOOF_SCRIPT_MYANMAR = 28, CSPOOF_SCRIPT_ORIYA = 31,
    CSPOOF_SCRIPT_TAMIL = 35, CSPOOF_SCRIPT_TELUGU = 36, CSPOOF_SCRIPT_THAI = 38,
};

/// Runs the spoof checker (highly restrictive, the allowed set of identifiers less a few
/// characters browsers refuse) on one label; returns the CSPOOF_* checks that failed (0: none)
/// and writes the label's restriction level to `*level`.
int32_t cspoof_check_label(const char *label, int32_t length, int32_t *level);

/// True (1) when the checker allows code point `c` in a label.
int32_t cspoof_is_allowed(uint32_t c);

/// The UTS 39 skeleton of `text`; returns the length written to `out` (not NUL-terminated).
int32_t cspoof_skeleton(const char *text, int32_t length, char *out, int32_t capacity);

/// `text` with its nonspacing marks removed (NFD, marks dropped, NFC).
int32_t cspoof_strip_marks(const char *text, int32_t length, char *out, int32_t capacity);

/// The Script property of `c` (a CSPOOF_SCRIPT_* or another UScriptCode value).
int32_t cspoof_script(uint32_t c);

/// True (1) when `script` is among `c`'s Script_Extensions.
int32_t cspoof_has_script(uint32_t c, int32_t script);

/// The English name of a script ("Latin", "Cyrillic"), or NULL.
const char *cspoof_script_name(int32_t script);

/// The Unicode name of `c` ("COMBINING LONG SOLIDUS OVERLAY") into `out`; returns its length.
int32_t cspoof_char_name(uint32_t c, char *out, int32_t capacity);

/// True (1) when `c` is a nonspacing mark (General_Category Mn).
int32_t cspoof_is_nonspacing_mark(uint32_t c);

/// The value of a decimal digit (0–9), or -1 for any other code point.
int32_t cspoof_digit_value(uint32_t c);

#endif
