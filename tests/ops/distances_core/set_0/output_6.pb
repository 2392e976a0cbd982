
B_pdist_forward_1J(·MŸ@x$â@H®Ë@Ø<@Úº@Pá@¡w∏@
÷À@#„ß@)“«@