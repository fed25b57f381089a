// No input file is a usage error.
// ARGS: --emit=glsl
// EXPECT-EXIT: 2
// EXPECT-STDERR: input
// EXPECT-NO-STDOUT
