B
bilinear_2JÂÅÚ@²¿Y@