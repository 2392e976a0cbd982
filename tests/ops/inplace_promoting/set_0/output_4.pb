B
remainder_JL&ç4I06