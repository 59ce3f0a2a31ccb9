/* cli/canvas.h — the demos' pictures: light added up on a square of pixels over a square of the
 * world, then tone-mapped into a PNG (png.h). */
#ifndef MINK_CLI_CANVAS_H
#define MINK_CLI_CANVAS_H

#include "mink/geom.h"

typedef struct cli_canvas {
    int size;     /* pixels a side */
    float scale;  /* pixels a unit */
    mink_vec2 lo; /* the world's point at the picture's lower left corner */
    float *acc;   /* RGB light, added up */
} cli_canvas;

/* A black canvas of size × size pixels showing the square from lo, `side` units wide. 0 when out
 * of memory. */
int cli_canvas_init(cli_canvas *c, int size, mink_vec2 lo, float side);
void cli_canvas_free(cli_canvas *c);

void cli_canvas_line(cli_canvas *c, mink_vec2 a, mink_vec2 b, const float rgb[3]);
/* A square of 2r + 1 pixels around p. */
void cli_canvas_dot(cli_canvas *c, mink_vec2 p, int r, const float rgb[3]);
void cli_canvas_box(cli_canvas *c, mink_vec2 lo, mink_vec2 hi, const float rgb[3]);
void cli_canvas_disc(cli_canvas *c, mink_vec2 centre, float radius, const float rgb[3]);

/* Writes the picture (each channel 1 - e^-light). 0 after a message naming `command`. */
int cli_canvas_write(const cli_canvas *c, const char *path, const char *command);

#endif /* MINK_CLI_CANVAS_H */
