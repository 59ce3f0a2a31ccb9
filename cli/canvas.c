/* cli/canvas.c — the demos' pictures (canvas.h). */
#include "canvas.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "png.h"

int cli_canvas_init(cli_canvas *c, int size, mink_vec2 lo, float side) {
    *c = (cli_canvas){.size = size, .scale = (float)size / side, .lo = lo};
    c->acc = calloc((size_t)size * (size_t)size * 3, sizeof *c->acc);
    return c->acc != NULL;
}

void cli_canvas_free(cli_canvas *c) {
    free(c->acc);
    c->acc = NULL;
}

static void to_pixel(const cli_canvas *c, mink_vec2 p, float *x, float *y) {
    *x = (p.x - c->lo.x) * c->scale;
    *y = (float)c->size - (p.y - c->lo.y) * c->scale;
}

static void plot(cli_canvas *c, int x, int y, const float rgb[3]) {
    if (x < 0 || y < 0 || x >= c->size || y >= c->size) return;
    float *px = &c->acc[((size_t)y * (size_t)c->size + (size_t)x) * 3];
    for (int k = 0; k < 3; k++) px[k] += rgb[k];
}

void cli_canvas_line(cli_canvas *c, mink_vec2 a, mink_vec2 b, const float rgb[3]) {
    float x0, y0, x1, y1;
    to_pixel(c, a, &x0, &y0);
    to_pixel(c, b, &x1, &y1);
    float n = fmaxf(fabsf(x1 - x0), fabsf(y1 - y0));
    int steps = (int)fminf(n, 4.0f * (float)c->size) + 1;
    for (int i = 0; i <= steps; i++) {
        float f = (float)i / (float)steps;
        plot(c, (int)(x0 + (x1 - x0) * f), (int)(y0 + (y1 - y0) * f), rgb);
    }
}

void cli_canvas_dot(cli_canvas *c, mink_vec2 p, int r, const float rgb[3]) {
    float x, y;
    to_pixel(c, p, &x, &y);
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) plot(c, (int)x + dx, (int)y + dy, rgb);
}

void cli_canvas_box(cli_canvas *c, mink_vec2 lo, mink_vec2 hi, const float rgb[3]) {
    float x0, y0, x1, y1;
    to_pixel(c, lo, &x0, &y1);
    to_pixel(c, hi, &x1, &y0);
    for (int y = (int)y0; y <= (int)y1; y++)
        for (int x = (int)x0; x <= (int)x1; x++) plot(c, x, y, rgb);
}

void cli_canvas_disc(cli_canvas *c, mink_vec2 centre, float radius, const float rgb[3]) {
    float x, y, r = radius * c->scale;
    to_pixel(c, centre, &x, &y);
    int reach = (int)ceilf(r);
    for (int dy = -reach; dy <= reach; dy++)
        for (int dx = -reach; dx <= reach; dx++)
            if ((float)(dx * dx + dy * dy) <= r * r + 0.25f) plot(c, (int)x + dx, (int)y + dy, rgb);
}

int cli_canvas_write(const cli_canvas *c, const char *path, const char *command) {
    size_t n = (size_t)c->size * (size_t)c->size * 3;
    uint8_t *rgb = malloc(n);
    if (rgb == NULL) return fprintf(stderr, "mink: %s: out of memory for the picture\n", command), 0;
    for (size_t i = 0; i < n; i++) rgb[i] = (uint8_t)(255.0f * (1.0f - expf(-c->acc[i])) + 0.5f);
    char err[4200];
    int ok = cli_write_png(path, rgb, c->size, c->size, err, sizeof err) == 0;
    if (!ok) fprintf(stderr, "mink: %s: %s\n", command, err);
    free(rgb);
    return ok;
}
