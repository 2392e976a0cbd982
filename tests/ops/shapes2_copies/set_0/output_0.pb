B
alias_copyJ0¨ií¾PD‰¿a¾£?>EŠ½þhô¿éÀFˆ­¾¨@fM$?±Þ=.œ,>ÈRi¾