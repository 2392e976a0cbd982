B
bincount_3JÉC€@Ø	@Ç%Aãkl@ÖÀ¢@¢×?