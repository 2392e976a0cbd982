B
max_pool1dJ²Þ÷>7š¸?@M?æà=­ÀO?ÜOt?