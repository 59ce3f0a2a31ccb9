/* cli/png.c — PNG output with libpng, put in place whole (outfile.h). libpng reports errors by longjmp, so everything the
 * jump may skip is set up before setjmp and released after it. */
#include "png.h"

#include "outfile.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

int cli_write_png(const char *path, const uint8_t *rgb, int width, int height, char *err, size_t err_size) {
    cli_outfile out;
    if (cli_outfile_open(&out, path, err, err_size) != 0) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile int ok = 0;
    if (png && info && !setjmp(png_jmpbuf(png))) {
        png_init_io(png, out.file);
        png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgb + (size_t)y * (size_t)width * 3));
        png_write_end(png, NULL);
        ok = 1;
    }
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    if (!ok) {
        cli_outfile_discard(&out);
        snprintf(err, err_size, "%s: libpng could not write the picture", path);
        return -1;
    }
    return cli_outfile_commit(&out, err, err_size);
}
