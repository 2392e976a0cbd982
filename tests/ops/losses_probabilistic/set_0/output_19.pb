B"binary_cross_entropy_with_logits_5J0
Cp?Яї?„рw?I >Wую?х@sV?Й$й>мa?пFн?{(s?~а?