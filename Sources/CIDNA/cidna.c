// A thin bridge to ICU's UTS #46 implementation: the UIDNA_INFO_INITIALIZER macro and the
// UErrorCode out-parameters do not import into Swift, so this file owns them.
#include "cidna.h"
#include <pthread.h>
#include <unicode/uidna.h>

static UIDNA *shared;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_shared(void) {
    UErrorCode status = U_ZERO_ERROR;
    shared = uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII |
                             UIDNA_NONTRANSITIONAL_TO_UNICODE, &status);
    if (U_FAILURE(status)) shared = NULL;
}

// The checks the URL Standard turns off (CheckHyphens = false, VerifyDnsLength = false).
static const uint32_t ignored = UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG |
    UIDNA_ERROR_DOMAIN_NAME_TOO_LONG | UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN |
    UIDNA_ERROR_HYPHEN_3_4;

typedef int32_t (*convert_fn)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *);

static int32_t run(convert_fn convert, const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors) {
    *errors = 0;
    pthread_once(&once, open_shared);
    if (shared == NULL) return -1;
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
    return run(uidna_nameToASCII_UTF8, name, length, out, capacity, errors);
}

int32_t cidna_to_unicode(const char *name, int32_t length, char *out, int32_t capacity, uint32_t *errors) {
    return run(uidna_nameToUnicodeUTF8, name, length, out, capacity, errors);
}
