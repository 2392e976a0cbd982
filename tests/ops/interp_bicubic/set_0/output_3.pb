Bupsample_bicubic2d_3J#uŒ?Øº4?ò¦¿
Ðè?Eï>ñº\?