B
leaky_reluJ C>A>‹?rS»’Ä‰? 8f»‹¹»Ù{>²»§¼