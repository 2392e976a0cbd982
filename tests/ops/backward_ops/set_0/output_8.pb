B
getitem_11J	
¬>Á«®>qþx¾\†½