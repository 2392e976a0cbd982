B
atleast_2dJH… ?