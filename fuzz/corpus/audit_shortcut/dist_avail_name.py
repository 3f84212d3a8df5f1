if s.distis_avail:
else
 raise