// A thin bridge to ICU's spoof checker, normaliser and character properties: ICU's functions are
// versioned macros and its results come through UErrorCode out-parameters, neither of which
// Swift can use, so this file owns them. One checker is built once and only read afterwards,
// which ICU allows from any number of threads. ICU is loaded (dlopen) when a host or text
// first needs it, not linked: links with ASCII hosts never map its 2.7 MB.
#include "cspoof.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

// ICU's names are macros for versioned symbols (uspoof_open is uspoof_open_72): a field named
// after a function is named after its versioned symbol too, and ICU_SYMBOL gives dlsym's string.
#define ICU_STRING(x) #x
#define ICU_SYMBOL(name) ICU_STRING(name)
#define ICU_LIBRARY(base, major) base ICU_STRING(major)
#define ICU_FUNCTIONS(F) \
    F(unorm2_getNFDInstance) \
    F(unorm2_getNFCInstance) \
    F(uspoof_open) \
    F(uset_openEmpty) \
    F(uset_addAll) \
    F(uspoof_getRecommendedSet) \
    F(uspoof_getInclusionSet) \
    F(uset_removeRange) \
    F(uset_freeze) \
    F(uspoof_setRestrictionLevel) \
    F(uspoof_setAllowedChars) \
    F(uspoof_setChecks) \
    F(uspoof_getChecks) \
    F(uspoof_close) \
    F(uset_close) \
    F(uspoof_openCheckResult) \
    F(uspoof_check2UTF8) \
    F(uspoof_getCheckResultRestrictionLevel) \
    F(uspoof_closeCheckResult) \
    F(uset_contains) \
    F(uspoof_getSkeletonUTF8) \
    F(u_strFromUTF8) \
    F(u_strToUTF8) \
    F(unorm2_normalize) \
    F(u_charType) \
    F(uscript_getScript) \
    F(uscript_hasScript) \
    F(uscript_getName) \
    F(u_charName) \
    F(u_charDigitValue)

static struct {
#define ICU_FIELD(name) __typeof__(&name) name;
    ICU_FUNCTIONS(ICU_FIELD)
#undef ICU_FIELD
} icu;

// True once every function was found (libicui18n brings libicuuc, which dlsym searches too).
static int icu_loaded;

static void load_icu(void) {
    void *library = dlopen(ICU_LIBRARY("libicui18n.so.", U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define ICU_LOAD(name) if ((icu.name = (__typeof__(icu.name))dlsym(library, ICU_SYMBOL(name))) == NULL) return;
    ICU_FUNCTIONS(ICU_LOAD)
#undef ICU_LOAD
    icu_loaded = 1;
}

_Static_assert(CSPOOF_SCRIPT_COMMON == USCRIPT_COMMON && CSPOOF_SCRIPT_INHERITED == USCRIPT_INHERITED &&
               CSPOOF_SCRIPT_ARABIC == USCRIPT_ARABIC && CSPOOF_SCRIPT_ARMENIAN == USCRIPT_ARMENIAN &&
               CSPOOF_SCRIPT_BENGALI == USCRIPT_BENGALI && CSPOOF_SCRIPT_BOPOMOFO == USCRIPT_BOPOMOFO &&
               CSPOOF_SCRIPT_CYRILLIC == USCRIPT_CYRILLIC && CSPOOF_SCRIPT_DEVANAGARI == USCRIPT_DEVANAGARI &&
               CSPOOF_SCRIPT_ETHIOPIC == USCRIPT_ETHIOPIC && CSPOOF_SCRIPT_GEORGIAN == USCRIPT_GEORGIAN &&
               CSPOOF_SCRIPT_GREEK == USCRIPT_GREEK && CSPOOF_SCRIPT_GUJARATI == USCRIPT_GUJARATI &&
               CSPOOF_SCRIPT_GURMUKHI == USCRIPT_GURMUKHI && CSPOOF_SCRIPT_HAN == USCRIPT_HAN &&
               CSPOOF_SCRIPT_HANGUL == USCRIPT_HANGUL && CSPOOF_SCRIPT_HEBREW == USCRIPT_HEBREW &&
               CSPOOF_SCRIPT_HIRAGANA == USCRIPT_HIRAGANA && CSPOOF_SCRIPT_KANNADA == USCRIPT_KANNADA &&
               CSPOOF_SCRIPT_KATAKANA == USCRIPT_KATAKANA && CSPOOF_SCRIPT_LAO == USCRIPT_LAO &&
               CSPOOF_SCRIPT_LATIN == USCRIPT_LATIN && CSPOOF_SCRIPT_MALAYALAM == USCRIPT_MALAYALAM &&
               CSPOOF_SCRIPT_MYANMAR == USCRIPT_MYANMAR && CSPOOF_SCRIPT_ORIYA == USCRIPT_ORIYA &&
               CSPOOF_SCRIPT_TAMIL == USCRIPT_TAMIL && CSPOOF_SCRIPT_TELUGU == USCRIPT_TELUGU &&
               CSPOOF_SCRIPT_THAI == USCRIPT_THAI,
               "CSPOOF_SCRIPT_* must equal ICU's UScriptCode values");

static USpoofChecker *checker;
static USet *allowed;
static const UNormalizer2 *nfd, *nfc;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Characters in the identifier sets that browsers still refuse in host names: look-alikes of
// `/`, `-`, quotes and `·`, a historic letter, and whole blocks of letters almost never used in
// names (Latin Extended Additional and -D, Greek Extended, Cyrillic Extended-B and -C, Pinyin).
static const UChar32 refused[][2] = {
    {0x0138, 0x0138}, {0x01CD, 0x01DC}, {0x02BB, 0x02BC}, {0x02EC, 0x02EC}, {0x0338, 0x0338},
    {0x058A, 0x058A}, {0x1C80, 0x1C8F}, {0x1E00, 0x1E9B}, {0x1F00, 0x1FFF}, {0x2010, 0x2010},
    {0x2019, 0x2019}, {0x2027, 0x2027}, {0x30A0, 0x30A0}, {0xA640, 0xA69F}, {0xA720, 0xA7FF},
};

static void open_checker(void) {
    load_icu();
    if (!icu_loaded) return;
    UErrorCode status = U_ZERO_ERROR;
    nfd = icu.unorm2_getNFDInstance(&status);
    nfc = icu.unorm2_getNFCInstance(&status);
    USpoofChecker *made = icu.uspoof_open(&status);
    USet *set = icu.uset_openEmpty();
    icu.uset_addAll(set, icu.uspoof_getRecommendedSet(&status));
    icu.uset_addAll(set, icu.uspoof_getInclusionSet(&status));
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) icu.uset_removeRange(set, refused[i][0], refused[i][1]);
    icu.uset_freeze(set);
    icu.uspoof_setRestrictionLevel(made, USPOOF_HIGHLY_RESTRICTIVE);
    icu.uspoof_setAllowedChars(made, set, &status);
    icu.uspoof_setChecks(made, icu.uspoof_getChecks(made, &status) | USPOOF_AUX_INFO, &status);
    if (U_FAILURE(status)) {
        icu.uspoof_close(made);
        icu.uset_close(set);
        return;
    }
    checker = made;
    allowed = set;
}

static int ready(void) {
    pthread_once(&once, open_checker);
    return checker != NULL && nfd != NULL && nfc != NULL;
}

// ICU's character properties alone (no checker needed).
static int loaded(void) {
    pthread_once(&once, open_checker);
    return icu_loaded;
}

int32_t cspoof_check_label(const char *label, int32_t length, int32_t *level) {
    *level = 0;
    if (!ready() || length < 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    USpoofCheckResult *result = icu.uspoof_openCheckResult(&status);
    int32_t failed = icu.uspoof_check2UTF8(checker, label, length, result, &status);
    URestrictionLevel restriction = icu.uspoof_getCheckResultRestrictionLevel(result, &status);
    icu.uspoof_closeCheckResult(result);
    if (U_FAILURE(status)) return -1;
    switch (restriction) {
    case USPOOF_ASCII: *level = CSPOOF_LEVEL_ASCII; break;
    case USPOOF_SINGLE_SCRIPT_RESTRICTIVE: *level = CSPOOF_LEVEL_SINGLE_SCRIPT; break;
    case USPOOF_HIGHLY_RESTRICTIVE: *level = CSPOOF_LEVEL_HIGHLY_RESTRICTIVE; break;
    case USPOOF_MODERATELY_RESTRICTIVE: *level = CSPOOF_LEVEL_MODERATELY_RESTRICTIVE; break;
    case USPOOF_MINIMALLY_RESTRICTIVE: *level = CSPOOF_LEVEL_MINIMALLY_RESTRICTIVE; break;
    default: *level = CSPOOF_LEVEL_UNRESTRICTIVE; break;
    }
    failed &= USPOOF_ALL_CHECKS;
    int32_t checks = 0;
    if (failed & USPOOF_RESTRICTION_LEVEL) checks |= CSPOOF_RESTRICTION_LEVEL;
    if (failed & USPOOF_INVISIBLE) checks |= CSPOOF_INVISIBLE;
    if (failed & USPOOF_CHAR_LIMIT) checks |= CSPOOF_CHAR_LIMIT;
    if (failed & USPOOF_MIXED_NUMBERS) checks |= CSPOOF_MIXED_NUMBERS;
    if (failed & USPOOF_HIDDEN_OVERLAY) checks |= CSPOOF_HIDDEN_OVERLAY;
    if (failed & ~(USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_CHAR_LIMIT | USPOOF_MIXED_NUMBERS |
                   USPOOF_HIDDEN_OVERLAY)) checks |= CSPOOF_OTHER_CHECK;
    return checks;
}

int32_t cspoof_is_allowed(uint32_t c) {
    return ready() && icu.uset_contains(allowed, (UChar32)c) ? 1 : 0;
}

int32_t cspoof_skeleton(const char *text, int32_t length, char *out, int32_t capacity) {
    if (!ready() || length < 0 || capacity < 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = icu.uspoof_getSkeletonUTF8(checker, 0, text, length, out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR || (status == U_STRING_NOT_TERMINATED_WARNING && written > capacity)) return -2;
    return U_FAILURE(status) ? -1 : written;
}

// UTF-8 → UTF-16 into a buffer from malloc (freed by the caller), NULL on failure.
static UChar *to_utf16(const char *text, int32_t length, int32_t *units) {
    UErrorCode status = U_ZERO_ERROR;
    icu.u_strFromUTF8(NULL, 0, units, text, length, &status);
    if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return NULL;
    UChar *buffer = malloc(sizeof(UChar) * (size_t)(*units + 1));
    if (buffer == NULL) return NULL;
    status = U_ZERO_ERROR;
    icu.u_strFromUTF8(buffer, *units + 1, units, text, length, &status);
    if (U_FAILURE(status)) {
        free(buffer);
        return NULL;
    }
    return buffer;
}

int32_t cspoof_strip_marks(const char *text, int32_t length, char *out, int32_t capacity) {
    if (!ready() || length < 0 || length > (1 << 20) || capacity < 0) return -1;
    int32_t units = 0;
    UChar *source = to_utf16(text, length, &units);
    if (source == NULL) return -1;
    int32_t result = -1;
    UErrorCode status = U_ZERO_ERROR;
    // NFD grows UTF-16 at most fourfold (the bound UAX 15's FAQ gives); composing only shrinks it.
    int32_t room = units * 4 + 1;
    UChar *decomposed = malloc(sizeof(UChar) * (size_t)room);
    UChar *composed = malloc(sizeof(UChar) * (size_t)room);
    if (decomposed != NULL && composed != NULL) {
        int32_t n = icu.unorm2_normalize(nfd, source, units, decomposed, room, &status);
        int32_t kept = 0;
        for (int32_t i = 0; U_SUCCESS(status) && i < n;) {
            UChar32 c;
            int32_t start = i;
            U16_NEXT(decomposed, i, n, c);
            if (icu.u_charType(c) == U_NON_SPACING_MARK) continue;
            for (int32_t j = start; j < i; j++) decomposed[kept++] = decomposed[j];
        }
        int32_t m = U_SUCCESS(status) ? icu.unorm2_normalize(nfc, decomposed, kept, composed, room, &status) : 0;
        if (U_SUCCESS(status)) {
            int32_t written = 0;
            icu.u_strToUTF8(out, capacity, &written, composed, m, &status);
            if (status == U_BUFFER_OVERFLOW_ERROR || written > capacity) result = -2;
            else if (U_SUCCESS(status) || status == U_STRING_NOT_TERMINATED_WARNING) result = written;
        }
    }
    free(source);
    free(decomposed);
    free(composed);
    return result;
}

int32_t cspoof_script(uint32_t c) {
    if (!loaded()) return USCRIPT_INVALID_CODE;
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = icu.uscript_getScript((UChar32)c, &status);
    return U_FAILURE(status) ? USCRIPT_INVALID_CODE : (int32_t)script;
}

int32_t cspoof_has_script(uint32_t c, int32_t script) {
    return loaded() && icu.uscript_hasScript((UChar32)c, (UScriptCode)script) ? 1 : 0;
}

const char *cspoof_script_name(int32_t script) {
    return !loaded() ? NULL : icu.uscript_getName((UScriptCode)script);
}

int32_t cspoof_char_name(uint32_t c, char *out, int32_t capacity) {
    if (capacity < 0 || !loaded()) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = icu.u_charName((UChar32)c, U_UNICODE_CHAR_NAME, out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR || written > capacity) return -2;
    return U_FAILURE(status) ? -1 : written;
}

int32_t cspoof_is_nonspacing_mark(uint32_t c) {
    return loaded() && icu.u_charType((UChar32)c) == U_NON_SPACING_MARK ? 1 : 0;
}

int32_t cspoof_digit_value(uint32_t c) {
    return !loaded() ? -1 : icu.u_charDigitValue((UChar32)c);
}
