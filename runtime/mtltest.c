/* mtltest.c: run golden-file regression tests (docs/golden-tests.md). main() reads as the list of stages: parse
   options, find the test files, load them, run each in its own process (several at once with -j), print
   PASS/FAIL/SKIP per test and a closing count, write JUnit XML. Exit 0 when nothing failed, 1 when a test failed,
   2 for usage errors, 77 when every test was skipped. */
#include "golden.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mtl2glsl.h"
#include "mtlrun_spec.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_ALL_SKIPPED = 77 };

typedef struct Options {
    GoldenRunOptions run;
    int jobs;
    double timeout; /* seconds per test; 0: none */
    const char *junit, *filter;
    bool list, verbose, quiet, list_devices;
} Options;

/* One test file: loaded in this process, run in a child. */
typedef struct Test {
    char *path;
    GoldenTest t;
    bool loaded;
    GoldenStatus status;
    char *report; /* what the load or the run printed */
    double seconds;
    pid_t pid;
    FILE *out; /* the child's stdout and stderr */
    struct timespec start;
    bool done;
} Test;

typedef struct Suite {
    Test *tests;
    int n, cap;
} Suite;

static const char usage_text[] =
    "usage: mtltest [OPTIONS] TEST.golden.json|DIR ...\n"
    "       mtltest --list-devices\n"
    "Runs golden tests (docs/golden-tests.md): each file names a Metal kernel, its dispatch, its buffers and the\n"
    "expected outputs. A folder is searched for *.golden.json files, recursively.\n"
    "\n"
    "options:\n"
    "  -j, --jobs N            tests run at once, each in its own process (default: the number of CPUs)\n"
    "  --validate              run under VK_LAYER_KHRONOS_validation; any message fails the test\n"
    "  --device NAME|INDEX     the Vulkan device (default: env MTL2GLSL_DEVICE, else discrete > integrated >\n"
    "                          virtual > CPU)\n"
    "  --subgroup-size N       translate SIMD-group functions for N-wide subgroups (4..128) instead of the file's\n"
    "                          or the device's choice\n"
    "  --virtual-subgroups     build subgroups from shared memory, so that any --subgroup-size runs here\n"
    "  --tensor-cores=auto|on|off  SIMD-group matrix products on tensor cores (mtl2glsl --tensor-cores) where\n"
    "                          the device runs them and the kernel is built for native 32-wide subgroups: auto\n"
    "                          (default) uses them there, on is an error elsewhere, off never uses them\n"
    "  --mma-lanes             rename lanes as the tensor-core path does, with exact products (any device)\n"
    "  --update                rewrite the goldens that the outputs differ from (and record missing ones) with\n"
    "                          this run's outputs; never done without it\n"
    "  --junit FILE            write the results as JUnit XML\n"
    "  --no-actual             do not write OUTPUT.actual.npy beside a golden that fails\n"
    "  --max-report N          elements over the tolerance shown per output (default 10)\n"
    "  --timeout SECONDS       fail a test that runs longer (default 600; 0: no limit)\n"
    "  -k, --filter TEXT       only the tests whose name contains TEXT\n"
    "  --list                  print the tests found, run nothing\n"
    "  -v, --verbose           show every test's report, and passing outputs' error maxima\n"
    "  -q, --quiet             print failures and the closing count only\n"
    "  --list-devices          list Vulkan devices and exit\n"
    "  --version               print the version and the file format version\n"
    "  -h, --help              this text\n"
    "exit status: 0 no test failed, 1 a test failed or could not run, 2 usage error, 77 every test skipped\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mtltest: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(mtltest --help for usage)\n");
    return EXIT_USAGE;
}

static bool parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    *out = v;
    return !errno && end != s && !*end && v >= lo && v <= hi;
}

enum {
    OPT_VALIDATE = 256,
    OPT_DEVICE,
    OPT_SUBGROUP,
    OPT_VIRTUAL,
    OPT_TENSOR_CORES,
    OPT_MMA_LANES,
    OPT_UPDATE,
    OPT_JUNIT,
    OPT_NO_ACTUAL,
    OPT_MAX_REPORT,
    OPT_TIMEOUT,
    OPT_LIST,
    OPT_LIST_DEVICES,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"jobs", required_argument, NULL, 'j'},
    {"validate", no_argument, NULL, OPT_VALIDATE},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"subgroup-size", required_argument, NULL, OPT_SUBGROUP},
    {"virtual-subgroups", no_argument, NULL, OPT_VIRTUAL},
    {"tensor-cores", required_argument, NULL, OPT_TENSOR_CORES},
    {"mma-lanes", no_argument, NULL, OPT_MMA_LANES},
    {"update", no_argument, NULL, OPT_UPDATE},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"no-actual", no_argument, NULL, OPT_NO_ACTUAL},
    {"max-report", required_argument, NULL, OPT_MAX_REPORT},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"filter", required_argument, NULL, 'k'},
    {"list", no_argument, NULL, OPT_LIST},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"list-devices", no_argument, NULL, OPT_LIST_DEVICES},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Parse the command line into O. Returns -1 to go on, else the exit status (help, version, usage errors). */
static int parse_options(Options *o, int argc, char **argv)
{
    long v;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (Options){.run = {.write_actual = true, .max_report = 10}, .jobs = cpus > 0 ? (int)cpus : 1, .timeout = 600};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:k:vqh", long_options, NULL)) != -1) {
        switch (c) {
        case 'j':
            if (!parse_count(optarg, 1, 256, &v))
                return usage_error("bad value '%s' for --jobs (1..256)", optarg);
            o->jobs = (int)v;
            break;
        case OPT_VALIDATE: o->run.validate = true; break;
        case OPT_DEVICE: o->run.device = optarg; break;
        case OPT_SUBGROUP:
            if (!parse_count(optarg, 4, 128, &v) || (v & (v - 1)))
                return usage_error("bad value '%s' for --subgroup-size (a power of two, 4..128)", optarg);
            o->run.subgroup_size = (uint32_t)v;
            break;
        case OPT_VIRTUAL: o->run.virtual_subgroups = true; break;
        case OPT_TENSOR_CORES: {
            MtlrunTensorCores mode;
            if (!mtlrun_tensor_cores_mode(optarg, &mode))
                return usage_error("bad value '%s' for --tensor-cores (auto, on or off)", optarg);
            o->run.tensor_cores = (int)mode;
            break;
        }
        case OPT_MMA_LANES: o->run.mma_lanes = true; break;
        case OPT_UPDATE: o->run.update = true; break;
        case OPT_JUNIT: o->junit = optarg; break;
        case OPT_NO_ACTUAL: o->run.write_actual = false; break;
        case OPT_MAX_REPORT:
            if (!parse_count(optarg, 0, 1000000, &v))
                return usage_error("bad value '%s' for --max-report", optarg);
            o->run.max_report = (int)v;
            break;
        case OPT_TIMEOUT:
            if (!parse_count(optarg, 0, 1000000, &v))
                return usage_error("bad value '%s' for --timeout (seconds; 0: no limit)", optarg);
            o->timeout = (double)v;
            break;
        case 'k': o->filter = optarg; break;
        case OPT_LIST: o->list = true; break;
        case 'v': o->verbose = o->run.verbose = true; break;
        case 'q': o->quiet = true; break;
        case OPT_LIST_DEVICES: o->list_devices = true; break;
        case OPT_VERSION:
            printf("mtltest %s (golden test files, format version %d)\n", MTL2GLSL_VERSION, GOLDEN_VERSION);
            return EXIT_OK;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        case ':': return usage_error("%s needs a value", argv[optind - 1]);
        default: return usage_error("unknown option %s", argv[optind - 1]);
        }
    }
    if (!o->list_devices && optind >= argc) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    return -1;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static bool add_test(Suite *s, const char *path)
{
    if (s->n == s->cap) {
        Test *t = realloc(s->tests, (size_t)(s->cap = s->cap ? 2 * s->cap : 16) * sizeof *t);
        if (!t)
            return false;
        s->tests = t;
    }
    s->tests[s->n] = (Test){.path = strdup(path)};
    return s->tests[s->n++].path != NULL;
}

static int skip_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* Every *.golden.json under DIR, in sorted order. */
static bool find_tests(Suite *s, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, skip_hidden, alphasort);
    if (n < 0) {
        fprintf(stderr, "mtltest: error: cannot read folder %s: %s\n", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", names[i]->d_name);
        if (ok && !stat(path, &st))
            ok = S_ISDIR(st.st_mode) ? find_tests(s, path) : !has_suffix(path, GOLDEN_SUFFIX) || add_test(s, path);
        free(names[i]);
    }
    free(names);
    return ok;
}

/* The tests named on the command line: files as given, folders searched. */
static bool collect(Suite *s, int argc, char **argv)
{
    for (int i = optind; i < argc; i++) {
        struct stat st;
        int before = s->n;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "mtltest: error: %s: %s\n", argv[i], strerror(errno));
            return false;
        }
        if (!(S_ISDIR(st.st_mode) ? find_tests(s, argv[i]) : add_test(s, argv[i])))
            return false;
        if (s->n == before) {
            fprintf(stderr, "mtltest: error: no test files (*%s) in %s\n", GOLDEN_SUFFIX, argv[i]);
            return false;
        }
    }
    return true;
}

/* Load every file; one that does not load is an ERROR with the loader's message. */
static void load_all(Suite *s)
{
    for (int i = 0; i < s->n; i++) {
        Test *t = &s->tests[i];
        size_t len = 0;
        FILE *err = open_memstream(&t->report, &len);
        t->loaded = err && golden_load(t->path, &t->t, err);
        if (err)
            fclose(err);
        if (!t->loaded) {
            t->t.name = golden_name_from_path(t->path);
            t->status = GOLDEN_ERROR;
            t->done = true;
        }
    }
}

/* Drop the tests whose name does not contain FILTER. */
static void apply_filter(Suite *s, const char *filter)
{
    int kept = 0;
    for (int i = 0; i < s->n; i++) {
        Test *t = &s->tests[i];
        if (!filter || (t->t.name && strstr(t->t.name, filter)))
            s->tests[kept++] = *t;
        else
            golden_free(&t->t), free(t->path), free(t->report);
    }
    s->n = kept;
}

static double elapsed(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) * 1e-9;
}

/* The child's exit code for each status; any other code (a crash, a sanitizer report) is an ERROR. */
static const int status_codes[] = {
    [GOLDEN_PASS] = 0, [GOLDEN_FAIL] = 1, [GOLDEN_SKIP] = 77, [GOLDEN_ERROR] = 3, [GOLDEN_UPDATED] = 4};

/* Start test T in a child process whose stdout and stderr go to a temporary file. */
static void start(Test *t, const Options *o)
{
    clock_gettime(CLOCK_MONOTONIC, &t->start);
    if (t->t.skip) { /* nothing to run */
        t->status = golden_run(&t->t, &o->run, (t->out = tmpfile()) ? t->out : stderr);
        t->done = true;
        return;
    }
    fflush(stdout);
    fflush(stderr);
    if (!(t->out = tmpfile()) || (t->pid = fork()) < 0) {
        fprintf(t->out ? t->out : stderr, "mtltest: error: cannot start the test: %s\n", strerror(errno));
        t->status = GOLDEN_ERROR;
        t->done = true;
        return;
    }
    if (t->pid == 0) {
        dup2(fileno(t->out), STDOUT_FILENO);
        dup2(fileno(t->out), STDERR_FILENO);
        GoldenStatus st = golden_run(&t->t, &o->run, stderr);
        fflush(stdout);
        exit(status_codes[st]);
    }
}

/* The test's status from the child's wait status. */
static void finish(Test *t, int wstatus)
{
    t->seconds = elapsed(&t->start);
    t->done = true;
    t->status = GOLDEN_ERROR;
    if (WIFEXITED(wstatus)) {
        for (int s = 0; s < (int)(sizeof status_codes / sizeof *status_codes); s++)
            if (status_codes[s] == WEXITSTATUS(wstatus))
                t->status = (GoldenStatus)s;
        if (t->status == GOLDEN_ERROR && WEXITSTATUS(wstatus) != status_codes[GOLDEN_ERROR])
            fprintf(t->out, "mtltest: error: the test process exited with status %d\n", WEXITSTATUS(wstatus));
    } else if (WIFSIGNALED(wstatus)) {
        fprintf(t->out, "mtltest: error: the test process was killed by signal %d (%s)\n", WTERMSIG(wstatus),
                strsignal(WTERMSIG(wstatus)));
    }
}

/* Take the child's output (and the loader's messages before it) as the report. */
static void take_output(Test *t)
{
    if (!t->out)
        return;
    long size = ftell(t->out);
    char *text = size > 0 ? malloc((size_t)size + 1) : NULL;
    rewind(t->out);
    if (text) {
        size_t got = fread(text, 1, (size_t)size, t->out);
        text[got] = 0;
        free(t->report);
        t->report = text;
    }
    fclose(t->out);
    t->out = NULL;
}

static const char *status_word(GoldenStatus s)
{
    static const char *const words[] = {"PASS", "FAIL", "SKIP", "FAIL", "UPDATE"};
    return words[s];
}

/* PASS/FAIL/SKIP NAME (time), then the report where it says something. */
static void print_result(const Test *t, const Options *o)
{
    bool failed = t->status == GOLDEN_FAIL || t->status == GOLDEN_ERROR;
    if (o->quiet && !failed)
        return;
    printf("%-6s %s (%.2f s)%s\n", status_word(t->status), t->t.name, t->seconds,
           t->status == GOLDEN_ERROR ? ": could not run" : "");
    bool show = failed || t->status == GOLDEN_UPDATED || o->verbose || t->status == GOLDEN_SKIP;
    if (show && t->report && *t->report) {
        if (failed && strncmp(t->report, t->path, strlen(t->path)))
            printf("  %s\n", t->path);
        fputs(t->report, stdout);
        if (t->report[strlen(t->report) - 1] != '\n')
            putchar('\n');
    }
    fflush(stdout);
}

/* Run every loaded test, at most O->jobs at once; print results in file order as they complete. */
static void run_all(Suite *s, const Options *o)
{
    int next = 0, running = 0, printed = 0;
    while (printed < s->n) {
        while (running < o->jobs && next < s->n) {
            Test *t = &s->tests[next++];
            if (t->done)
                continue;
            start(t, o);
            running += !t->done;
            if (t->done)
                take_output(t);
        }
        int wstatus;
        pid_t pid = running ? waitpid(-1, &wstatus, WNOHANG) : 0;
        for (int i = 0; pid > 0 && i < s->n; i++)
            if (s->tests[i].pid == pid && !s->tests[i].done) {
                finish(&s->tests[i], wstatus);
                take_output(&s->tests[i]);
                running--;
            }
        for (int i = 0; pid == 0 && o->timeout > 0 && i < s->n; i++) {
            Test *t = &s->tests[i];
            if (t->pid > 0 && !t->done && elapsed(&t->start) > o->timeout) {
                kill(t->pid, SIGKILL);
                waitpid(t->pid, &wstatus, 0);
                fprintf(t->out, "mtltest: error: the test ran longer than --timeout %.0f s and was stopped\n",
                        o->timeout);
                t->seconds = elapsed(&t->start);
                t->done = true;
                t->status = GOLDEN_FAIL;
                take_output(t);
                running--;
            }
        }
        while (printed < s->n && s->tests[printed].done)
            print_result(&s->tests[printed++], o);
        if (pid == 0 && printed < s->n)
            nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
}

/* TEXT as XML character data or attribute value: markup escaped, characters XML 1.0 forbids replaced. */
static void xml_text(FILE *f, const char *text, size_t max)
{
    for (size_t i = 0; text && text[i] && i < max; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '&')
            fputs("&amp;", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
            fputc('?', f);
        else
            fputc(c, f);
    }
}

/* The first line of a report that says what went wrong. */
static size_t first_line(const char *text)
{
    return text ? strcspn(text, "\n") : 0;
}

/* JUnit XML: one testsuite, one testcase per test; FAIL as <failure>, could-not-run as <error>, SKIP as
   <skipped>, each with the report. */
static bool write_junit(const Suite *s, const char *path, double seconds)
{
    int counts[5] = {0};
    for (int i = 0; i < s->n; i++)
        counts[s->tests[i].status]++;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mtltest: error: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    for (int level = 0; level < 2; level++)
        fprintf(f, "%s<%s name=\"mtltest\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
                level ? "  " : "", level ? "testsuite" : "testsuites", s->n, counts[GOLDEN_FAIL], counts[GOLDEN_ERROR],
                counts[GOLDEN_SKIP], seconds);
    for (int i = 0; i < s->n; i++) {
        const Test *t = &s->tests[i];
        const char *elem = t->status == GOLDEN_FAIL    ? "failure"
                           : t->status == GOLDEN_ERROR ? "error"
                           : t->status == GOLDEN_SKIP  ? "skipped"
                                                       : NULL;
        fprintf(f, "    <testcase classname=\"mtltest\" name=\"");
        xml_text(f, t->t.name, SIZE_MAX);
        fprintf(f, "\" file=\"");
        xml_text(f, t->path, SIZE_MAX);
        fprintf(f, "\" time=\"%.3f\"%s>\n", t->seconds, "");
        if (elem) {
            const char *r = t->report ? t->report + strspn(t->report, " ") : "";
            fprintf(f, "      <%s message=\"", elem);
            xml_text(f, r, first_line(r));
            fprintf(f, "\">");
            xml_text(f, t->report, SIZE_MAX);
            fprintf(f, "</%s>\n", elem);
        } else if (t->report && *t->report) {
            fprintf(f, "      <system-out>");
            xml_text(f, t->report, SIZE_MAX);
            fprintf(f, "</system-out>\n");
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return fclose(f) == 0;
}

/* "N passed, N failed, N skipped" (updated tests count as passed); the exit status. */
static int summarize(const Suite *s)
{
    int passed = 0, failed = 0, skipped = 0, updated = 0;
    for (int i = 0; i < s->n; i++) {
        GoldenStatus st = s->tests[i].status;
        passed += st == GOLDEN_PASS || st == GOLDEN_UPDATED;
        updated += st == GOLDEN_UPDATED;
        failed += st == GOLDEN_FAIL || st == GOLDEN_ERROR;
        skipped += st == GOLDEN_SKIP;
    }
    printf("%d passed, %d failed, %d skipped", passed, failed, skipped);
    if (updated)
        printf(" (%d with goldens updated)", updated);
    printf("\n");
    return failed ? EXIT_FAIL : passed ? EXIT_OK : EXIT_ALL_SKIPPED;
}

static void suite_free(Suite *s)
{
    for (int i = 0; i < s->n; i++) {
        golden_free(&s->tests[i].t);
        free(s->tests[i].path);
        free(s->tests[i].report);
    }
    free(s->tests);
}

int main(int argc, char **argv)
{
    Options o;
    Suite s = {0};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mtlrt_set_diag(stderr, "mtltest");
    int status = parse_options(&o, argc, argv);
    if (status >= 0)
        return status;
    if (o.list_devices)
        return mtlrt_list_devices(stdout) ? EXIT_OK : EXIT_FAIL;
    if (!collect(&s, argc, argv)) {
        suite_free(&s);
        return EXIT_USAGE;
    }
    load_all(&s);
    apply_filter(&s, o.filter);
    if (!s.n) {
        suite_free(&s);
        return usage_error("no test's name contains '%s' (--filter)", o.filter);
    }
    if (o.list) {
        for (int i = 0; i < s.n; i++)
            printf("%s\t%s\n", s.tests[i].t.name, s.tests[i].path);
        suite_free(&s);
        return EXIT_OK;
    }
    run_all(&s, &o);
    status = summarize(&s);
    if (o.junit && !write_junit(&s, o.junit, elapsed(&t0)))
        status = EXIT_FAIL;
    suite_free(&s);
    return status;
}
