B
getitem_23J@dPÇ¿0`Ú¿ÇÐ¾SÚ¿}6¾t„¿6V?V	½Ûp?D¾¯>I)L¿´ëA?…p»"z[=Ó}z>yJþ¾