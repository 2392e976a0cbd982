Bdequantize_per_tensor_9J@šÂ>
BB`å»¦›Ä»o¼î|A/ÁÇK?ÀÒ"ÛÀ[dÂsh9À¦›6AŠA¹A@5ÆÀü©µAæÐ A