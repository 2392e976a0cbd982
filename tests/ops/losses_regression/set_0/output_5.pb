B
huber_lossJ
€?