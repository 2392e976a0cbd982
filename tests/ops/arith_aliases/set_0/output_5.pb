B
subtract_1J∏À¿¿45µ¿Oâ¿'Wœ¿®‡¿DA±¿