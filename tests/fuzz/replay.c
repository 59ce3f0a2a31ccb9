/* tests/fuzz/replay.c — a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each
 * file named, or on each file in each folder named (the committed corpus), and says how many. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *p = realloc(buf, cap);
            if (p == NULL) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = p;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    size_t inputs = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= run_file(argv[i]);
            inputs++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, NULL, alphasort); /* a fixed order: reproducible runs */
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (names[k]->d_name[0] != '.') {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
                failed |= run_file(path);
                inputs++;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %zu inputs\n", inputs);
    return failed;
}
