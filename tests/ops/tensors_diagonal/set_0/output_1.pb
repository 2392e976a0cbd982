B
diagonal_1Jà–ë?lO­¿þáž?