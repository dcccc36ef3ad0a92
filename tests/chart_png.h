/*
 * Reading back the PNGs the chart tests render, to measure what was drawn.
 * Static functions: included by the chart test programs only, which link
 * cairo.
 */
#ifndef HEAPSCOPE_TESTS_CHART_PNG_H
#define HEAPSCOPE_TESTS_CHART_PNG_H

#include <heapscope/render.h>

#include <cairo.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct png_image {
    cairo_surface_t *s;      /* destroy with png_image_free */
    const unsigned char *d;
    int stride, width, height;
} png_image;

typedef struct png_read {
    const unsigned char *data;
    size_t len, pos;
} png_read;

static inline cairo_status_t png_read_mem(void *closure, unsigned char *data,
                                   unsigned int len)
{
    png_read *r = closure;
    if (r->len - r->pos < len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->data + r->pos, len);
    r->pos += len;
    return CAIRO_STATUS_SUCCESS;
}

/* Decodes the PNG in m; false (im->s still to be freed) when it does not
 * decode. */
static inline bool png_image_load(png_image *im, const hs_membuf *m)
{
    png_read r = {(const unsigned char *)m->data, m->len, 0};
    memset(im, 0, sizeof *im);
    im->s = cairo_image_surface_create_from_png_stream(png_read_mem, &r);
    if (cairo_surface_status(im->s) != CAIRO_STATUS_SUCCESS)
        return false;
    im->d = cairo_image_surface_get_data(im->s);
    im->stride = cairo_image_surface_get_stride(im->s);
    im->width = cairo_image_surface_get_width(im->s);
    im->height = cairo_image_surface_get_height(im->s);
    return true;
}

static inline void png_image_free(png_image *im)
{
    cairo_surface_destroy(im->s);
    im->s = NULL;
}

/* The 0xRRGGBB of pixel x, y. */
static inline uint32_t png_px(const png_image *im, int x, int y)
{
    return *(const uint32_t *)(im->d + (size_t)y * (size_t)im->stride +
                               (size_t)x * 4) & 0xffffffu;
}

#endif
