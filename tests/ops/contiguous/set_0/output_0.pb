B
contiguousJ“ð>J?¥‹0??éM•¿æ3A?