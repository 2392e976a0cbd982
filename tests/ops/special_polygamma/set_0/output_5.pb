Bwhere_11Jp~ธ KmYๆPใhี@\vHงPWง|ฦV/ญ๘CใMO&lB‘แXเZ๔A|dkฬH–TÞf\๗ýR>จDTฒH`^#OpXBรNร
R7~ฺl๕	ถbฬ^AOภAJรณ^T