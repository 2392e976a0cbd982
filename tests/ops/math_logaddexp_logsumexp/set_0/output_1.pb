B
logaddexp2J h$’B8¬™A&>ßAÁB‘@²AB¬™A¥ÆAÁB