// Replays fuzzer inputs without libFuzzer: calls LLVMFuzzerTestOneInput() on
// every file named on the command line and on every regular file in every
// folder named there (in name order, not recursively), each in a malloc'ed
// buffer of exactly its size, so a sanitizer build catches reads past the
// end as the fuzzer would. Linked with one harness as fuzz_replay_<target>
// (tests/fuzz/fuzz.cmake); the ctests replay the committed corpora.
//   fuzz_replay_msh tests/fuzz/corpus/msh [crash-file ...]
// Exit status: 0 when every input ran (a broken invariant aborts), 1 when a
// path cannot be read or nothing was replayed.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *bigger = realloc(buf, 2 * cap);
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    // An exact-size copy: one byte more would hide an overread from ASan.
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// Replays every regular file of `dir`; the number replayed, or -1.
static int replay_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open folder %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) {
                status = -1;
                break;
            }
            names = bigger;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            status = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, compare_names);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (status == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[i]) != 0)
                status = -1;
            else
                count++;
        }
        free(names[i]);
    }
    free(names);
    return status == 0 ? count : -1;
}

int main(int argc, char **argv) {
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
            return 1;
        }
        int n = S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]) == 0 ? 1 : -1;
        if (n < 0) return 1;
        total += n;
    }
    printf("replayed %d inputs\n", total);
    return total > 0 ? 0 : 1;
}
