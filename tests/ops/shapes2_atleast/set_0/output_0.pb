B
atleast_1dJH… ?