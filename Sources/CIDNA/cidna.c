// A thin bridge to ICU's UTS #46 implementation: the UIDNA_INFO_INITIALIZER macro and the
// UErrorCode out-parameters do not import into Swift, so this file owns them. ICU is loaded on
// the first non-ASCII host (dlopen), not linked: a daemon that only sees ASCII hosts never maps
// its 1.3 MB (see cspoof.c for the same with the spoof checker).
#include "cidna.h"
#include <dlfcn.h>
#include <pthread.h>
#include <unicode/uidna.h>

// ICU's names are macros for versioned symbols (uidna_openUTS46 is uidna_openUTS46_72), so a
// field named after a function is its versioned name too, and ICU_SYMBOL gives the string dlsym
// needs. The library is the major version the headers are from.
#define ICU_STRING(x) #x
#define ICU_SYMBOL(name) ICU_STRING(name)
#define ICU_LIBRARY(base, major) base ICU_STRING(major)

static struct {
    __typeof__(&uidna_openUTS46) uidna_openUTS46;
    __typeof__(&uidna_nameToASCII_UTF8) uidna_nameToASCII_UTF8;
    __typeof__(&uidna_nameToUnicodeUTF8) uidna_nameToUnicodeUTF8;
} icu;

static UIDNA *shared;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_shared(void) {
    // Never closed: the converter lives as long as the process.
    void *library = dlopen(ICU_LIBRARY("libicuuc.so.", U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    icu.uidna_openUTS46 = (__typeof__(icu.uidna_openUTS46))dlsym(library, ICU_SYMBOL(uidna_openUTS46));
    icu.uidna_nameToASCII_UTF8 = (__typeof__(icu.uidna_nameToASCII_UTF8))dlsym(library, ICU_SYMBOL(uidna_nameToASCII_UTF8));
    icu.uidna_nameToUnicodeUTF8 = (__typeof__(icu.uidna_nameToUnicodeUTF8))dlsym(library, ICU_SYMBOL(uidna_nameToUnicodeUTF8));
    if (icu.uidna_openUTS46 == NULL || icu.uidna_nameToASCII_UTF8 == NULL || icu.uidna_nameToUnicodeUTF8 == NULL) return;
    UErrorCode status = U_ZERO_ERROR;
    shared = icu.uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII |
                                 UIDNA_NONTRANSITIONAL_TO_UNICODE, &status);
    if (U_FAILURE(status)) shared = NULL;
}

// The checks the URL Standard turns off (CheckHyphens = false, VerifyDnsLength = false).
static const uint32_t ignored = UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG |
    UIDNA_ERROR_DOMAIN_NAME_TOO_LONG | UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN |
    UIDNA_ERROR_HYPHEN_3_4;

typedef int32_t (*convert_fn)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *);

static int32_t run(int to_ascii, const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors) {
    *errors = 0;
    pthread_once(&once, open_shared);
    if (shared == NULL) return -1;
    convert_fn convert = to_ascii ? icu.uidna_nameToASCII_UTF8 : icu.uidna_nameToUnicodeUTF8;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = convert(shared, name, length, out, capacity, &info, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR || status == U_STRING_NOT_TERMINATED_WARNING) {
        if (written > capacity) return -2;
    } else if (U_FAILURE(status)) {
        return -1;
    }
    uint32_t found = info.errors & ~ignored;
    if (found != 0) {
        *errors = found;
        return -1;
    }
    return written;
}

int32_t cidna_to_ascii(const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors) {
    return run(1, name, length, out, capacity, errors);
}

int32_t cidna_to_unicode(const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors) {
    return run(0, name, length, out, capacity, errors);
}
