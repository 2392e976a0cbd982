B
multiply_1J·K½Â¬,?µÃZ@iru¿] ÀÇëk?