Blinalg_tensorsolveJQÿ¸½Ä]>/
…½F/M=I«Œ¾XH'½