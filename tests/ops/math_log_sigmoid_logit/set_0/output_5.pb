Bspecial_logit_1J(Y®¿ZÑ#?¢Ò+@YK?v?Àü
.=aËÜ> …™¿œ‚?å¯¹?