Bquantize_affine_1J €ÝמוײC£
.3$<ׁûאןררררv]ׁ°Û