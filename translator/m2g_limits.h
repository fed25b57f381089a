/* m2g_limits.h: how far the translator follows its input. Past each limit the input gets an error that names the limit
   (with a location where there is one), never a crash, a hang or invalid GLSL. docs/limits.md lists them. */
#ifndef MTL2GLSL_LIMITS_H
#define MTL2GLSL_LIMITS_H

/* A source file, a header it includes, or a kernel spec: at most this many bytes, and a regular file. */
#define M2G_MAX_FILE_BYTES (64L << 20)
/* The preprocessed program (the source with every header it includes) */
#define M2G_MAX_PREPROCESSED_BYTES (256L << 20)
/* Expressions and statements nested inside each other (a + b + c is 2 deep; if-else-if chains count each if).
   clang's own limit on brackets is 256; glslang's parser stack holds about 1000 levels. */
#define M2G_MAX_NESTING 512
/* The same, estimated on the text before clang parses it, counting every operator, bracket and if/else/loop keyword
   of an expression or statement chain: clang's parser needs up to 4 KiB of its 8 MiB stack per level (a cast), so
   deeper text would crash it before the nesting could be measured exactly. */
#define M2G_MAX_PARSE_DEPTH 1024
/* Characters of an identifier (glslang takes at most 1024; generated names add suffixes). */
#define M2G_MAX_IDENTIFIER 255
/* Characters of an entry point's name: it names files (ENTRY.comp, ENTRY.json) and C functions (--emit=c). */
#define M2G_MAX_ENTRY_NAME 200
/* Entry points in one source. */
#define M2G_MAX_ENTRIES 100000
/* Elements of one initializer list ({...}, a constructor's arguments): a SPIR-V instruction holds at most 65535
   words, so OpConstantComposite / OpCompositeConstruct at most 65532 constituents. */
#define M2G_MAX_INITIALIZER 65532
/* Elements of a local array of structs whose default constructor the user wrote (`S a[N];`): each element is made
   by the constructor in the array's initializer, so the GLSL grows with N. */
#define M2G_MAX_CONSTRUCTED_ELEMENTS 1024
/* Bytes of one type (an array, a struct) under Metal's layout: sizes and offsets are computed in 32 bits, and a
   type's std430 form may be larger than its Metal one. */
#define M2G_MAX_TYPE_BYTES (1L << 28)
/* Kernel specs: bytes of one array of a call (a Vulkan storage buffer's range is 32-bit). */
#define M2G_MAX_SPEC_ARRAY_BYTES 0xffffffffLL

/* A limit's value as a string literal, for messages: M2G_STR(M2G_MAX_NESTING) is "512". */
#define M2G_STR_(x) #x
#define M2G_STR(x) M2G_STR_(x)

#endif
