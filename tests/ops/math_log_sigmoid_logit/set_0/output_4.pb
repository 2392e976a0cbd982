Bspecial_logitJ(Y®¿ZÑ#?¢Ò+@YK?v?Àü
.=aËÜ> …™¿œ‚?å¯¹?