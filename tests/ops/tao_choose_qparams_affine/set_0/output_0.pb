BgetitemJææ<3Bƒ<
<<ÏÒ=