#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/samplefmt.h>

// AVERROR(EAGAIN) and AVERROR_EOF are function-like macros, which Swift cannot call.
static inline int assets_averror_again(void) { return AVERROR(EAGAIN); }
static inline int assets_averror_eof(void) { return AVERROR_EOF; }
