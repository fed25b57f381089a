// An input file that does not exist: an error naming it, no crash.
// ARGS: %s.does-not-exist.metal
// EXPECT-EXIT: 1
// EXPECT-STDERR: does-not-exist
// EXPECT-NO-STDOUT
