/* npy.c: dtypes, arrays, and the .npy file format.

   Hand-written on purpose: a .npy file is a 10- or 12-byte preamble, a Python-dict header
   ({'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }) and the raw little-endian bytes; Debian has no
   C library for it, and the subset needed here (simple little-endian dtypes, C order) is a page of code. */
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct DtypeInfo {
    const char *descr, *name, *metal;
    size_t size;
    char kind;
} DtypeInfo;

static const DtypeInfo dtypes[] = {
#define DTYPE(e, descr, name, metal, size, kind) {descr, name, metal, size, kind},
#include "dtype.def"
#undef DTYPE
};

/* "float32", "f4", "<f4", "|u1", "=i4", "<V2" (bfloat16) or a Metal scalar name -> dtype; NONE if unknown. */
MtlrtDtype mtlrt_dtype_from_name(const char *name)
{
    if (name[0] == '<' || name[0] == '|' || name[0] == '=')
        name++;
    for (int i = 0; i < MTLRT_DTYPE_COUNT; i++)
        if (!strcmp(name, dtypes[i].descr) || !strcmp(name, dtypes[i].name) || !strcmp(name, dtypes[i].metal))
            return (MtlrtDtype)i;
    return MTLRT_DTYPE_NONE;
}

const char *mtlrt_dtype_name(MtlrtDtype dtype)
{
    return dtype >= 0 && dtype < MTLRT_DTYPE_COUNT ? dtypes[dtype].name : "unknown";
}

size_t mtlrt_dtype_size(MtlrtDtype dtype)
{
    return dtypes[dtype].size;
}

char mtlrt_dtype_kind(MtlrtDtype dtype)
{
    return dtypes[dtype].kind;
}

/* Allocate a zero-filled C-order array; false (with a message) on overflow or out of memory. */
bool mtlrt_array_alloc(MtlrtArray *a, MtlrtDtype dtype, int ndim, const uint64_t *shape)
{
    memset(a, 0, sizeof *a);
    if (ndim < 0 || ndim > MTLRT_MAX_DIMS) {
        rt_error("arrays of %d dimensions are not supported (at most %d)", ndim, MTLRT_MAX_DIMS);
        return false;
    }
    a->dtype = dtype;
    a->ndim = ndim;
    a->count = 1;
    for (int i = 0; i < ndim; i++) {
        a->shape[i] = shape[i];
        if (shape[i] && a->count > MTLRT_MAX_ARRAY_BYTES / dtypes[dtype].size / shape[i]) {
            rt_error("an array of this shape holds more than %llu bytes, the limit (a Vulkan storage buffer's range "
                     "is 32-bit; docs/limits.md)", (unsigned long long)MTLRT_MAX_ARRAY_BYTES);
            return false;
        }
        a->count *= shape[i];
    }
    a->nbytes = (size_t)a->count * dtypes[dtype].size;
    a->data = calloc(a->nbytes ? a->nbytes : 1, 1);
    if (!a->data) {
        rt_fail(MTLRT_ERROR_OUT_OF_MEMORY, "out of memory for an array of %zu bytes", a->nbytes);
        return false;
    }
    return true;
}

void mtlrt_array_free(MtlrtArray *a)
{
    free(a->data);
    a->data = NULL;
}

/* Fill with NaN (float dtypes) or 0xA5 bytes. */
void mtlrt_array_poison(MtlrtArray *a)
{
    for (uint64_t i = 0; i < a->count; i++) {
        switch (a->dtype) {
        case MTLRT_DTYPE_F32:
            ((float *)a->data)[i] = NAN;
            break;
        case MTLRT_DTYPE_F64:
            ((double *)a->data)[i] = NAN;
            break;
        case MTLRT_DTYPE_F16:
            ((uint16_t *)a->data)[i] = 0x7e00;
            break;
        case MTLRT_DTYPE_BF16:
            ((uint16_t *)a->data)[i] = 0x7fc0;
            break;
        case MTLRT_DTYPE_C64:
            ((float *)a->data)[2 * i] = ((float *)a->data)[2 * i + 1] = NAN;
            break;
        default:
            memset((char *)a->data + i * dtypes[a->dtype].size, 0xa5, dtypes[a->dtype].size);
            break;
        }
    }
}

/* IEEE binary16 bits -> float. */
float rt_half_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexpf((float)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

/* bfloat16 bits -> float (the high half of a float32). */
float rt_bfloat_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* float -> bfloat16 bits, round to nearest even (NaN stays NaN). */
static uint16_t float_to_bfloat(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if (isnan(f))
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fff + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* Element I as long double (exact for every dtype here; a complex64's real part). */
long double mtlrt_array_get(const MtlrtArray *a, uint64_t i)
{
    const void *d = a->data;
    switch (a->dtype) {
    case MTLRT_DTYPE_F32: return ((const float *)d)[i];
    case MTLRT_DTYPE_F16: return rt_half_to_float(((const uint16_t *)d)[i]);
    case MTLRT_DTYPE_F64: return ((const double *)d)[i];
    case MTLRT_DTYPE_I8: return ((const int8_t *)d)[i];
    case MTLRT_DTYPE_U8: return ((const uint8_t *)d)[i];
    case MTLRT_DTYPE_I16: return ((const int16_t *)d)[i];
    case MTLRT_DTYPE_U16: return ((const uint16_t *)d)[i];
    case MTLRT_DTYPE_I32: return ((const int32_t *)d)[i];
    case MTLRT_DTYPE_U32: return ((const uint32_t *)d)[i];
    case MTLRT_DTYPE_I64: return ((const int64_t *)d)[i];
    case MTLRT_DTYPE_U64: return ((const uint64_t *)d)[i];
    case MTLRT_DTYPE_BOOL: return ((const uint8_t *)d)[i] != 0;
    case MTLRT_DTYPE_BF16: return rt_bfloat_to_float(((const uint16_t *)d)[i]);
    case MTLRT_DTYPE_C64: return ((const float *)d)[2 * i];
    default: return 0;
    }
}

/* Parse "D0xD1x..." (or commas) into SHAPE; returns the number of dims, -1 if malformed. */
static int parse_shape(const char *s, uint64_t *shape)
{
    int n = 0;
    while (*s) {
        if (n == MTLRT_MAX_DIMS || !isdigit((unsigned char)*s))
            return -1;
        char *end;
        errno = 0;
        shape[n++] = strtoull(s, &end, 10);
        if (errno)
            return -1;
        s = end;
        if (*s == 'x' || *s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

/* "float32:64x64" -> zero-filled array of that dtype and shape. */
bool mtlrt_array_from_spec(const char *spec, MtlrtArray *a)
{
    const char *colon = strchr(spec, ':');
    char name[32];
    uint64_t shape[MTLRT_MAX_DIMS];
    if (!colon || (size_t)(colon - spec) >= sizeof name) {
        rt_error("'%s' is neither a .npy file nor DTYPE:SHAPE (e.g. float32:1000 or float32:64x64)", spec);
        return false;
    }
    memcpy(name, spec, (size_t)(colon - spec));
    name[colon - spec] = 0;
    MtlrtDtype dtype = mtlrt_dtype_from_name(name);
    if (dtype == MTLRT_DTYPE_NONE) {
        rt_error("'%s': unknown dtype '%s' (float32 float16 bfloat16 float64 complex64 int8 uint8 int16 uint16 int32 "
                 "uint32 int64 uint64 bool)", spec, name);
        return false;
    }
    int ndim = parse_shape(colon + 1, shape);
    if (ndim <= 0) {
        rt_error("'%s': expected a shape like 1000 or 64x64 after ':'", spec);
        return false;
    }
    return mtlrt_array_alloc(a, dtype, ndim, shape);
}

/* The quoted value after KEY in a .npy header dict, copied into OUT; false if absent. */
static bool header_string(const char *hdr, const char *key, char *out, size_t size)
{
    const char *p = strstr(hdr, key);
    if (!p || !(p = strchr(p + strlen(key), ':')))
        return false;
    p++;
    while (*p == ' ')
        p++;
    if (*p != '\'' && *p != '"')
        return false;
    char quote = *p++;
    size_t n = 0;
    while (p[n] && p[n] != quote && n + 1 < size) {
        out[n] = p[n];
        n++;
    }
    out[n] = 0;
    return p[n] == quote;
}

/* Shape tuple after 'shape' in a .npy header: "(3, 4)", "(5,)", "()". Number of dims, -1 if malformed. */
static int header_shape(const char *hdr, uint64_t *shape)
{
    const char *p = strstr(hdr, "'shape'");
    if (!p || !(p = strchr(p, '(')))
        return -1;
    int n = 0;
    for (p++; *p && *p != ')';) {
        if (*p == ' ' || *p == ',') {
            p++;
            continue;
        }
        if (!isdigit((unsigned char)*p) || n == MTLRT_MAX_DIMS)
            return -1;
        char *end;
        errno = 0;
        shape[n++] = strtoull(p, &end, 10);
        if (errno)
            return -1;
        p = end;
        if (*p == 'L') /* Python 2 longs */
            p++;
    }
    return *p == ')' ? n : -1;
}

/* Read the preamble and header of F; the header text is malloc'd into *HDR. */
static bool read_npy_header(FILE *f, const char *path, char **hdr)
{
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6) != 0) {
        rt_error("%s: not a .npy file (no \\x93NUMPY magic)", path);
        return false;
    }
    uint32_t len;
    if (pre[6] == 1) {
        if (fread(pre + 8, 1, 2, f) != 2)
            goto truncated;
        len = pre[8] | (uint32_t)pre[9] << 8;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 8, 1, 4, f) != 4)
            goto truncated;
        len = pre[8] | (uint32_t)pre[9] << 8 | (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
    } else {
        rt_error("%s: .npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", path, pre[6], pre[7]);
        return false;
    }
    if (len > (1u << 20) || !(*hdr = calloc(len + 1, 1))) {
        rt_error("%s: .npy header of %u bytes is too large", path, len);
        return false;
    }
    if (fread(*hdr, 1, len, f) == len)
        return true;
    free(*hdr);
    *hdr = NULL;
truncated:
    rt_fail(MTLRT_ERROR_IO, "%s: truncated .npy header", path);
    return false;
}

/* Interpret a header dict: dtype (little-endian or byte-sized), C order, shape; allocate A. */
static bool parse_npy_header(const char *hdr, const char *path, uint64_t data_bytes, MtlrtArray *a)
{
    char descr[32];
    uint64_t shape[MTLRT_MAX_DIMS];
    if (!header_string(hdr, "'descr'", descr, sizeof descr)) {
        rt_error("%s: .npy header has no simple 'descr' (structured dtypes are not supported): %s", path, hdr);
        return false;
    }
    MtlrtDtype dtype = mtlrt_dtype_from_name(descr);
    if (descr[0] == '>' && dtype == MTLRT_DTYPE_NONE && mtlrt_dtype_from_name(descr + 1) != MTLRT_DTYPE_NONE) {
        rt_error("%s: big-endian dtype '%s'; save it little-endian (arr.astype('<%s'))", path, descr, descr + 1);
        return false;
    }
    if (dtype == MTLRT_DTYPE_NONE || descr[0] == '>') {
        rt_error("%s: dtype '%s' is not supported (f2 f4 f8 c8 i1 u1 i2 u2 i4 u4 i8 u8 b1, and V2 or 'bfloat16' "
                 "for bfloat16)", path, descr);
        return false;
    }
    int ndim = header_shape(hdr, shape);
    if (ndim < 0) {
        rt_error("%s: cannot read the shape in the .npy header: %s", path, hdr);
        return false;
    }
    const char *fo = strstr(hdr, "'fortran_order'");
    fo = fo ? fo + strlen("'fortran_order'") + strspn(fo + strlen("'fortran_order'"), " ") : NULL;
    fo = fo && *fo == ':' ? fo + 1 + strspn(fo + 1, " ") : NULL;
    bool fortran = fo && !strncmp(fo, "True", 4);
    if (!fo || (!fortran && strncmp(fo, "False", 5))) {
        rt_error("%s: .npy header has no 'fortran_order': True or False: %s", path, hdr);
        return false;
    }
    if (fortran && ndim > 1) {
        rt_error("%s: Fortran-order array; save it with np.ascontiguousarray", path);
        return false;
    }
    /* the data its header announces must be in the file before anything is allocated for it */
    uint64_t count = 1;
    for (int i = 0; i < ndim; i++)
        count = shape[i] && count > UINT64_MAX / shape[i] ? UINT64_MAX : count * shape[i];
    if (count > data_bytes / mtlrt_dtype_size(dtype)) {
        rt_error("%s: file ends before the data its header announces (%llu elements of %zu bytes; %llu bytes follow "
                 "the header)", path, (unsigned long long)count, mtlrt_dtype_size(dtype), (unsigned long long)data_bytes);
        return false;
    }
    return mtlrt_array_alloc(a, dtype, ndim, shape);
}

/* PATH opened for reading when it is a regular file (not a directory, a device or a FIFO) of at most LIMIT bytes
   (*SIZE: its size); NULL with a message. */
static FILE *open_regular(const char *path, uint64_t limit, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block the open */
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        rt_fail(MTLRT_ERROR_IO, "cannot open %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    const char *why = S_ISDIR(st.st_mode) ? "is a directory" : !S_ISREG(st.st_mode) ? "is not a regular file" : NULL;
    if (why || (uint64_t)st.st_size > limit) {
        if (why)
            rt_fail(MTLRT_ERROR_IO, "cannot read %s: it %s", path, why);
        else
            rt_error("cannot read %s: %lld bytes, more than the limit of %llu (docs/limits.md)", path,
                     (long long)st.st_size, (unsigned long long)limit);
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f)
        close(fd);
    *size = (uint64_t)st.st_size;
    return f;
}

/* Read PATH into A. */
bool mtlrt_npy_read(const char *path, MtlrtArray *a)
{
    char *hdr = NULL;
    memset(a, 0, sizeof *a);
    uint64_t size;
    FILE *f = open_regular(path, UINT64_MAX, &size);
    if (!f)
        return false;
    if (!read_npy_header(f, path, &hdr))
        goto error;
    long at = ftell(f);
    if (at < 0 || !parse_npy_header(hdr, path, size - (uint64_t)at, a))
        goto error;
    if (fread(a->data, 1, a->nbytes, f) != a->nbytes) {
        rt_fail(MTLRT_ERROR_IO, "%s: file ends before the %zu data bytes its header announces", path, a->nbytes);
        goto error;
    }
    free(hdr);
    fclose(f);
    return true;
error:
    mtlrt_array_free(a);
    free(hdr);
    fclose(f);
    return false;
}

/* The header dict of A, padded with spaces and '\n' so data starts at a multiple of 64 bytes (format 1.0). */
static int format_npy_header(const MtlrtArray *a, char *hdr, size_t size)
{
    char shape[MTLRT_MAX_DIMS * 24 + 4];
    int n = snprintf(shape, sizeof shape, "(");
    for (int i = 0; i < a->ndim; i++)
        n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%llu", i ? ", " : "",
                      (unsigned long long)a->shape[i]);
    snprintf(shape + n, sizeof shape - (size_t)n, a->ndim == 1 ? ",)" : ")");
    const DtypeInfo *d = &dtypes[a->dtype];
    int len = snprintf(hdr, size, "{'descr': '%c%s', 'fortran_order': False, 'shape': %s, }",
                       d->size == 1 ? '|' : '<', d->descr, shape);
    while ((10 + len + 1) % 64)
        hdr[len++] = ' ';
    hdr[len++] = '\n';
    hdr[len] = 0;
    return len;
}

/* Write A to PATH as .npy format 1.0. */
bool mtlrt_npy_write(const char *path, const MtlrtArray *a)
{
    char hdr[512];
    int len = format_npy_header(a, hdr, sizeof hdr - 70);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(len & 0xff),
                             (unsigned char)(len >> 8)};
    FILE *f = fopen(path, "wb");
    if (!f) {
        rt_fail(MTLRT_ERROR_IO, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, (size_t)len, f) == (size_t)len &&
              fwrite(a->data, 1, a->nbytes, f) == a->nbytes;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        rt_fail(MTLRT_ERROR_IO, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

/* float -> IEEE binary16 bits, round to nearest even; overflow gives infinity. */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffff;
    if (((x >> 23) & 0xff) == 0xff)
        return sign | 0x7c00 | (mant ? 0x200 : 0);
    if (exp >= 31)
        return sign | 0x7c00;
    if (exp <= 0) {
        if (exp < -10)
            return sign;
        mant |= 0x800000;
        int shift = 14 - exp;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        h += rem > half || (rem == half && (h & 1));
        return sign | (uint16_t)h;
    }
    uint32_t h = (uint32_t)exp << 10 | mant >> 13, rem = mant & 0x1fff;
    h += rem > 0x1000 || (rem == 0x1000 && (h & 1));
    return sign | (uint16_t)h;
}

/* Store floating VALUE into element I of A (a float dtype), rounded to it. */
static void store_float_at(MtlrtArray *a, uint64_t i, double value)
{
    if (a->dtype == MTLRT_DTYPE_F32)
        ((float *)a->data)[i] = (float)value;
    else if (a->dtype == MTLRT_DTYPE_F64)
        ((double *)a->data)[i] = value;
    else if (a->dtype == MTLRT_DTYPE_BF16)
        ((uint16_t *)a->data)[i] = float_to_bfloat((float)value); /* through float32, as MLX rounds */
    else
        ((uint16_t *)a->data)[i] = float_to_half((float)value);
}

static void store_float(MtlrtArray *a, double value)
{
    store_float_at(a, 0, value);
}

/* Parse integer TEXT (decimal or 0x hex) for dtype D into A, range-checked. */
static bool store_int(MtlrtArray *a, const char *text)
{
    char *end;
    size_t size = dtypes[a->dtype].size;
    errno = 0;
    if (!isdigit((unsigned char)text[0]) && !(text[0] == '-' && isdigit((unsigned char)text[1])))
        return false; /* strto(u)ll would take " -1" and "+1", and wrap "-1" for an unsigned type */
    if (dtypes[a->dtype].kind == 'i') {
        long long v = strtoll(text, &end, 0);
        long long lim = size == 8 ? 0 : 1ll << (8 * size - 1);
        if (errno || *end || (lim && (v < -lim || v >= lim)))
            return false;
        memcpy(a->data, &v, size); /* little-endian host: the low bytes */
    } else {
        unsigned long long v = strtoull(text, &end, 0);
        if (errno || *end || text[0] == '-' || (size < 8 && v >> (8 * size)))
            return false;
        memcpy(a->data, &v, size);
    }
    return true;
}

/* TEXT read as a value of DTYPE into element 0 of A: a float rounded to it, an integer in its range (decimal or
   0x hex), true/false/1/0 for bool. False (no message) when TEXT is no such value. */
static bool parse_value(MtlrtArray *a, const char *text)
{
    char *end;
    switch (dtypes[a->dtype].kind) {
    case 'f': {
        /* 1e999 (ERANGE) or 1e39 for a float32 would become infinity: refused; "inf" written out stays infinity */
        if (isspace((unsigned char)text[0]))
            return false;
        errno = 0;
        double v = strtod(text, &end);
        double max = a->dtype == MTLRT_DTYPE_F64 ? DBL_MAX : a->dtype == MTLRT_DTYPE_F32 ? FLT_MAX
                     : a->dtype == MTLRT_DTYPE_BF16 ? 3.3895313892515355e38 : 65504.0;
        if (end == text || *end || (isinf(v) ? errno == ERANGE : fabs(v) > max))
            return false;
        store_float(a, v);
        return true;
    }
    case 'b': {
        bool t = !strcmp(text, "true") || !strcmp(text, "1"), f = !strcmp(text, "false") || !strcmp(text, "0");
        *(uint8_t *)a->data = t;
        return t || f;
    }
    case 'c':
        return false;
    default:
        return store_int(a, text);
    }
}

/* TEXT as a 0-d array of DTYPE. */
bool mtlrt_array_from_value(const char *text, MtlrtDtype dtype, MtlrtArray *a)
{
    if (dtype < 0 || dtype >= MTLRT_DTYPE_COUNT) {
        rt_error("mtlrt_array_from_value: not a dtype");
        return false;
    }
    if (!mtlrt_array_alloc(a, dtype, 0, NULL))
        return false;
    if (!parse_value(a, text)) {
        rt_error("'%s' is not a %s value%s", text, dtypes[dtype].name,
                 dtypes[dtype].kind == 'c' ? " (complex64 scalars: give their bytes)" :
                 dtypes[dtype].kind == 'b' ? " (true, false, 1 or 0)" : "");
        mtlrt_array_free(a);
        return false;
    }
    return true;
}

/* "TYPE:VALUE" -> 0-d array. */
bool mtlrt_array_from_scalar(const char *spec, MtlrtArray *a)
{
    const char *colon = strchr(spec, ':');
    char name[32];
    memset(a, 0, sizeof *a);
    if (!colon || (size_t)(colon - spec) >= sizeof name) {
        rt_error("'%s': expected TYPE:VALUE, e.g. float:2.5 or uint:7", spec);
        return false;
    }
    memcpy(name, spec, (size_t)(colon - spec));
    name[colon - spec] = 0;
    MtlrtDtype dtype = mtlrt_dtype_from_name(name);
    if (dtype == MTLRT_DTYPE_NONE) {
        rt_error("'%s': unknown scalar type '%s'", spec, name);
        return false;
    }
    if (!mtlrt_array_alloc(a, dtype, 0, NULL))
        return false;
    if (!parse_value(a, colon + 1)) {
        rt_error("'%s': '%s' is not a valid %s value", spec, colon + 1, dtypes[dtype].name);
        mtlrt_array_free(a);
        return false;
    }
    return true;
}

/* V (long double holds every value of every dtype here exactly) is an integer in TO's range. */
static bool fits_integer(long double v, MtlrtDtype to)
{
    size_t size = dtypes[to].size;
    if (!isfinite(v) || v != floorl(v))
        return false;
    if (dtypes[to].kind == 'u')
        return v >= 0 && (size == 8 ? v < 18446744073709551616.0L : v < (long double)(1ull << (8 * size)));
    long double lim = size == 8 ? 9223372036854775808.0L : (long double)(1ull << (8 * size - 1));
    return v >= -lim && v < lim;
}

/* Element I of IN stored into element I of OUT (dtype TO) when the value is exactly representable there. */
static bool convert_one(const MtlrtArray *in, MtlrtArray *out, uint64_t i)
{
    long double v = mtlrt_array_get(in, i);
    char kin = dtypes[in->dtype].kind, kout = dtypes[out->dtype].kind;
    if ((kin == 'b') != (kout == 'b') || (kin == 'c') != (kout == 'c'))
        return false; /* a bool is no number here, a complex no real */
    if (kout == 'b' || kout == 'c') {
        memcpy((char *)out->data + i * dtypes[out->dtype].size, (const char *)in->data + i * dtypes[in->dtype].size,
               dtypes[out->dtype].size);
        return true;
    }
    if (kout == 'f') {
        store_float_at(out, i, (double)v);
        long double back = mtlrt_array_get(out, i);
        return back == v || (isnan(back) && isnan(v));
    }
    if (!fits_integer(v, out->dtype))
        return false;
    if (kout == 'i') {
        long long x = (long long)v;
        memcpy((char *)out->data + i * dtypes[out->dtype].size, &x, dtypes[out->dtype].size);
    } else {
        unsigned long long x = (unsigned long long)v;
        memcpy((char *)out->data + i * dtypes[out->dtype].size, &x, dtypes[out->dtype].size);
    }
    return true;
}

/* IN as an array of dtype TO (allocated in OUT), every element exactly; else false with WHY (no message logged). */
bool rt_convert_exact(const MtlrtArray *in, MtlrtDtype to, MtlrtArray *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (to < 0 || to >= MTLRT_DTYPE_COUNT) {
        snprintf(why, why_size, "not a dtype");
        return false;
    }
    uint64_t shape[MTLRT_MAX_DIMS];
    memcpy(shape, in->shape, sizeof shape);
    out->dtype = to, out->ndim = in->ndim, out->count = in->count;
    memcpy(out->shape, shape, sizeof shape);
    out->nbytes = (size_t)in->count * dtypes[to].size;
    if (!(out->data = calloc(out->nbytes ? out->nbytes : 1, 1))) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    for (uint64_t i = 0; i < in->count; i++) {
        if (convert_one(in, out, i))
            continue;
        char kin = dtypes[in->dtype].kind, kout = dtypes[to].kind;
        if ((kin == 'b') != (kout == 'b') || (kin == 'c') != (kout == 'c'))
            snprintf(why, why_size, "a %s value cannot be given as %s (%s)", dtypes[to].name, dtypes[in->dtype].name,
                     kin == 'b' || kout == 'b' ? "bool and numbers do not convert" : "complex and real do not convert");
        else if (in->ndim == 0)
            snprintf(why, why_size, "%s %.17Lg is not exactly representable as %s", dtypes[in->dtype].name,
                     mtlrt_array_get(in, i), dtypes[to].name);
        else
            snprintf(why, why_size, "element %llu (%s %.17Lg) is not exactly representable as %s",
                     (unsigned long long)i, dtypes[in->dtype].name, mtlrt_array_get(in, i), dtypes[to].name);
        mtlrt_array_free(out);
        return false;
    }
    return true;
}

bool mtlrt_array_convert_exact(const MtlrtArray *in, MtlrtDtype to, MtlrtArray *out)
{
    char why[512];
    if (rt_convert_exact(in, to, out, why, sizeof why))
        return true;
    rt_error("%s", why);
    return false;
}

/* The raw bytes of PATH as a 1-d uint8 array. */
bool mtlrt_array_from_raw_file(const char *path, MtlrtArray *a)
{
    memset(a, 0, sizeof *a);
    uint64_t size;
    FILE *f = open_regular(path, MTLRT_MAX_ARRAY_BYTES, &size);
    if (!f)
        return false;
    uint64_t shape = size;
    bool ok = mtlrt_array_alloc(a, MTLRT_DTYPE_U8, 1, &shape) && fread(a->data, 1, a->nbytes, f) == a->nbytes;
    if (!ok && a->data) {
        rt_fail(MTLRT_ERROR_IO, "cannot read %s: %s", path, strerror(errno));
        mtlrt_array_free(a);
    }
    fclose(f);
    return ok;
}
