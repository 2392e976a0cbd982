
Bmasked_selectJ(r°ù½å"é¾ª.¿e@ï9M¾Z–‚¿l¬<77‹¾ìâ2>ÿB¾