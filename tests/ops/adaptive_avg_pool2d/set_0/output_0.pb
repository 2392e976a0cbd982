Badaptive_avg_pool2dJ±XÞ½ÍYù=0íÆ¼
Çh>ƒ}·>¸þ$¾