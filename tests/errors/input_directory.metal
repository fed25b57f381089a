// A directory given as the input (here the folder of this file): an error naming it, no allocation of ftell's
// error value.
// ARGS: %d
// EXPECT-EXIT: 1
// EXPECT-STDERR: is a directory
// EXPECT-NO-STDOUT
