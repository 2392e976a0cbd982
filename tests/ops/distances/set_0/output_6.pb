
Bpdist_1J(ÝaA@Þ¹@™¥@œD@gÿ @BUz@(ï@c}ø?87@Ú„w@