Bcosine_similarityJ”wÉ¾
b¶½÷A3¿