B
atleast_3dJH… ?