
Bdequantize_per_tensor_6JPÈ®<¾s÷i¾‰è¼6Á<f¾¥t˜¾PÐ¾?÷½‰è»mIM=Ó2¾s÷i¾‰è;û/=9ò¾9ò–¾SÓ½¼R¾6Á¼\,;=