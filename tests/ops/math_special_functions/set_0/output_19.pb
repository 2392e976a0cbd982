B
mvlgamma_2JH9¡ÀAB–ç?…ñBB‘ðAyÇÝ@RU‹A'W÷?IY=BJµÇ@eˆ’@¸j«@Ñ-B”…@‚ÁyA±ôdAƒX@ŒwTBÍ‘°@