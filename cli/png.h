/* cli/png.h — writing a picture as PNG, through libpng. */
#ifndef MINK_CLI_PNG_H
#define MINK_CLI_PNG_H

#include <stddef.h>
#include <stdint.h>

/// Writes an 8-bit RGB image (rows top to bottom, 3 bytes a pixel) to path, put in place whole
/// (cli/outfile.h). 0 on success; -1 with a message in err.
int cli_write_png(const char *path, const uint8_t *rgb, int width, int height, char *err, size_t err_size);

#endif /* MINK_CLI_PNG_H */
