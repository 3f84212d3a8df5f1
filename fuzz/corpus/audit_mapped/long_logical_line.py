import torch
if torch.cuda.is_available():
    calls = [t0.cuda(), t1.cuda(), t2.cuda(), t3.cuda(), t4.cuda(), t5.cuda(), t6.cuda(), t7.cuda(), t8.cuda(), t9.cuda(), t10.cuda(), t11.cuda(), t12.cuda(), t13.cuda(), t14.cuda(), t15.cuda(), t16.cuda(), t17.cuda(), t18.cuda(), t19.cuda(), t20.cuda(), t21.cuda(), t22.cuda(), t23.cuda(), t24.cuda(), t25.cuda(), t26.cuda(), t27.cuda(), t28.cuda(), t29.cuda(), t30.cuda(), t31.cuda(), t32.cuda(), t33.cuda(), t34.cuda(), t35.cuda(), t36.cuda(), t37.cuda(), t38.cuda(), t39.cuda(), t40.cuda(), t41.cuda(), t42.cuda(), t43.cuda(), t44.cuda(), t45.cuda(), t46.cuda(), t47.cuda(), t48.cuda(), t49.cuda(), t50.cuda(), t51.cuda(), t52.cuda(), t53.cuda(), t54.cuda(), t55.cuda(), t56.cuda(), t57.cuda(), t58.cuda(), t59.cuda(), t60.cuda(), t61.cuda(), t62.cuda(), t63.cuda(), t64.cuda(), t65.cuda(), t66.cuda(), t67.cuda(), t68.cuda(), t69.cuda(), t70.cuda(), t71.cuda(), t72.cuda(), t73.cuda(), t74.cuda(), t75.cuda(), t76.cuda(), t77.cuda(), t78.cuda(), t79.cuda(), t80.cuda(), t81.cuda(), t82.cuda(), t83.cuda(), t84.cuda(), t85.cuda(), t86.cuda(), t87.cuda(), t88.cuda(), t89.cuda(), t90.cuda(), t91.cuda(), t92.cuda(), t93.cuda(), t94.cuda(), t95.cuda(), t96.cuda(), t97.cuda(), t98.cuda(), t99.cuda(), t100.cuda(), t101.cuda(), t102.cuda(), t103.cuda(), t104.cuda(), t105.cuda(), t106.cuda(), t107.cuda(), t108.cuda(), t109.cuda(), t110.cuda(), t111.cuda(), t112.cuda(), t113.cuda(), t114.cuda(), t115.cuda(), t116.cuda(), t117.cuda(), t118.cuda(), t119.cuda(), t120.cuda(), t121.cuda(), t122.cuda(), t123.cuda(), t124.cuda(), t125.cuda(), t126.cuda(), t127.cuda(), t128.cuda(), t129.cuda(), t130.cuda(), t131.cuda(), t132.cuda(), t133.cuda(), t134.cuda(), t135.cuda(), t136.cuda(), t137.cuda(), t138.cuda(), t139.cuda(), t140.cuda(), t141.cuda(), t142.cuda(), t143.cuda(), t144.cuda(), t145.cuda(), t146.cuda(), t147.cuda(), t148.cuda(), t149.cuda(), t150.cuda(), t151.cuda(), t152.cuda(), t153.cuda(), t154.cuda(), t155.cuda(), t156.cuda(), t157.cuda(), t158.cuda(), t159.cuda(), t160.cuda(), t161.cuda(), t162.cuda(), t163.cuda(), t164.cuda(), t165.cuda(), t166.cuda(), t167.cuda(), t168.cuda(), t169.cuda(), t170.cuda(), t171.cuda(), t172.cuda(), t173.cuda(), t174.cuda(), t175.cuda(), t176.cuda(), t177.cuda(), t178.cuda(), t179.cuda(), t180.cuda(), t181.cuda(), t182.cuda(), t183.cuda(), t184.cuda(), t185.cuda(), t186.cuda(), t187.cuda(), t188.cuda(), t189.cuda(), t190.cuda(), t191.cuda(), t192.cuda(), t193.cuda(), t194.cuda(), t195.cuda(), t196.cuda(), t197.cuda(), t198.cuda(), t199.cuda(), t200.cuda(), t201.cuda(), t202.cuda(), t203.cuda(), t204.cuda(), t205.cuda(), t206.cuda(), t207.cuda(), t208.cuda(), t209.cuda(), t210.cuda(), t211.cuda(), t212.cuda(), t213.cuda(), t214.cuda(), t215.cuda(), t216.cuda(), t217.cuda(), t218.cuda(), t219.cuda(), t220.cuda(), t221.cuda(), t222.cuda(), t223.cuda(), t224.cuda(), t225.cuda(), t226.cuda(), t227.cuda(), t228.cuda(), t229.cuda(), t230.cuda(), t231.cuda(), t232.cuda(), t233.cuda(), t234.cuda(), t235.cuda(), t236.cuda(), t237.cuda(), t238.cuda(), t239.cuda(), t240.cuda(), t241.cuda(), t242.cuda(), t243.cuda(), t244.cuda(), t245.cuda(), t246.cuda(), t247.cuda(), t248.cuda(), t249.cuda(), t250.cuda(), t251.cuda(), t252.cuda(), t253.cuda(), t254.cuda(), t255.cuda(), t256.cuda(), t257.cuda(), t258.cuda(), t259.cuda(), t260.cuda(), t261.cuda(), t262.cuda(), t263.cuda(), t264.cuda(), t265.cuda(), t266.cuda(), t267.cuda(), t268.cuda(), t269.cuda(), t270.cuda(), t271.cuda(), t272.cuda(), t273.cuda(), t274.cuda(), t275.cuda(), t276.cuda(), t277.cuda(), t278.cuda(), t279.cuda(), t280.cuda(), t281.cuda(), t282.cuda(), t283.cuda(), t284.cuda(), t285.cuda(), t286.cuda(), t287.cuda(), t288.cuda(), t289.cuda(), t290.cuda(), t291.cuda(), t292.cuda(), t293.cuda(), t294.cuda(), t295.cuda(), t296.cuda(), t297.cuda(), t298.cuda(), t299.cuda(), t300.cuda(), t301.cuda(), t302.cuda(), t303.cuda(), t304.cuda(), t305.cuda(), t306.cuda(), t307.cuda(), t308.cuda(), t309.cuda(), t310.cuda(), t311.cuda(), t312.cuda(), t313.cuda(), t314.cuda(), t315.cuda(), t316.cuda(), t317.cuda(), t318.cuda(), t319.cuda(), t320.cuda(), t321.cuda(), t322.cuda(), t323.cuda(), t324.cuda(), t325.cuda(), t326.cuda(), t327.cuda(), t328.cuda(), t329.cuda(), t330.cuda(), t331.cuda(), t332.cuda(), t333.cuda(), t334.cuda(), t335.cuda(), t336.cuda(), t337.cuda(), t338.cuda(), t339.cuda(), t340.cuda(), t341.cuda(), t342.cuda(), t343.cuda(), t344.cuda(), t345.cuda(), t346.cuda(), t347.cuda(), t348.cuda(), t349.cuda(), t350.cuda(), t351.cuda(), t352.cuda(), t353.cuda(), t354.cuda(), t355.cuda(), t356.cuda(), t357.cuda(), t358.cuda(), t359.cuda(), t360.cuda(), t361.cuda(), t362.cuda(), t363.cuda(), t364.cuda(), t365.cuda(), t366.cuda(), t367.cuda(), t368.cuda(), t369.cuda(), t370.cuda(), t371.cuda(), t372.cuda(), t373.cuda(), t374.cuda(), t375.cuda(), t376.cuda(), t377.cuda(), t378.cuda(), t379.cuda(), t380.cuda(), t381.cuda(), t382.cuda(), t383.cuda(), t384.cuda(), t385.cuda(), t386.cuda(), t387.cuda(), t388.cuda(), t389.cuda(), t390.cuda(), t391.cuda(), t392.cuda(), t393.cuda(), t394.cuda(), t395.cuda(), t396.cuda(), t397.cuda(), t398.cuda(), t399.cuda(), t400.cuda(), t401.cuda(), t402.cuda(), t403.cuda(), t404.cuda(), t405.cuda(), t406.cuda(), t407.cuda(), t408.cuda(), t409.cuda(), t410.cuda(), t411.cuda(), t412.cuda(), t413.cuda(), t414.cuda(), t415.cuda(), t416.cuda(), t417.cuda(), t418.cuda(), t419.cuda(), t420.cuda(), t421.cuda(), t422.cuda(), t423.cuda(), t424.cuda(), t425.cuda(), t426.cuda(), t427.cuda(), t428.cuda(), t429.cuda(), t430.cuda(), t431.cuda(), t432.cuda(), t433.cuda(), t434.cuda(), t435.cuda(), t436.cuda(), t437.cuda(), t438.cuda(), t439.cuda(), t440.cuda(), t441.cuda(), t442.cuda(), t443.cuda(), t444.cuda(), t445.cuda(), t446.cuda(), t447.cuda(), t448.cuda(), t449.cuda(), t450.cuda(), t451.cuda(), t452.cuda(), t453.cuda(), t454.cuda(), t455.cuda(), t456.cuda(), t457.cuda(), t458.cuda(), t459.cuda(), t460.cuda(), t461.cuda(), t462.cuda(), t463.cuda(), t464.cuda(), t465.cuda(), t466.cuda(), t467.cuda(), t468.cuda(), t469.cuda(), t470.cuda(), t471.cuda(), t472.cuda(), t473.cuda(), t474.cuda(), t475.cuda(), t476.cuda(), t477.cuda(), t478.cuda(), t479.cuda(), t480.cuda(), t481.cuda(), t482.cuda(), t483.cuda(), t484.cuda(), t485.cuda(), t486.cuda(), t487.cuda(), t488.cuda(), t489.cuda(), t490.cuda(), t491.cuda(), t492.cuda(), t493.cuda(), t494.cuda(), t495.cuda(), t496.cuda(), t497.cuda(), t498.cuda(), t499.cuda(), t500.cuda(), t501.cuda(), t502.cuda(), t503.cuda(), t504.cuda(), t505.cuda(), t506.cuda(), t507.cuda(), t508.cuda(), t509.cuda(), t510.cuda(), t511.cuda(), t512.cuda(), t513.cuda(), t514.cuda(), t515.cuda(), t516.cuda(), t517.cuda(), t518.cuda(), t519.cuda(), t520.cuda(), t521.cuda(), t522.cuda(), t523.cuda(), t524.cuda(), t525.cuda(), t526.cuda(), t527.cuda(), t528.cuda(), t529.cuda(), t530.cuda(), t531.cuda(), t532.cuda(), t533.cuda(), t534.cuda(), t535.cuda(), t536.cuda(), t537.cuda(), t538.cuda(), t539.cuda(), t540.cuda(), t541.cuda(), t542.cuda(), t543.cuda(), t544.cuda(), t545.cuda(), t546.cuda(), t547.cuda(), t548.cuda(), t549.cuda(), t550.cuda(), t551.cuda(), t552.cuda(), t553.cuda(), t554.cuda(), t555.cuda(), t556.cuda(), t557.cuda(), t558.cuda(), t559.cuda(), t560.cuda(), t561.cuda(), t562.cuda(), t563.cuda(), t564.cuda(), t565.cuda(), t566.cuda(), t567.cuda(), t568.cuda(), t569.cuda(), t570.cuda(), t571.cuda(), t572.cuda(), t573.cuda(), t574.cuda(), t575.cuda(), t576.cuda(), t577.cuda(), t578.cuda(), t579.cuda(), t580.cuda(), t581.cuda(), t582.cuda(), t583.cuda(), t584.cuda(), t585.cuda(), t586.cuda(), t587.cuda(), t588.cuda(), t589.cuda(), t590.cuda(), t591.cuda(), t592.cuda(), t593.cuda(), t594.cuda(), t595.cuda(), t596.cuda(), t597.cuda(), t598.cuda(), t599.cuda(), t600.cuda(), t601.cuda(), t602.cuda(), t603.cuda(), t604.cuda(), t605.cuda(), t606.cuda(), t607.cuda(), t608.cuda(), t609.cuda(), t610.cuda(), t611.cuda(), t612.cuda(), t613.cuda(), t614.cuda(), t615.cuda(), t616.cuda(), t617.cuda(), t618.cuda(), t619.cuda(), t620.cuda(), t621.cuda(), t622.cuda(), t623.cuda(), t624.cuda(), t625.cuda(), t626.cuda(), t627.cuda(), t628.cuda(), t629.cuda(), t630.cuda(), t631.cuda(), t632.cuda(), t633.cuda(), t634.cuda(), t635.cuda(), t636.cuda(), t637.cuda(), t638.cuda(), t639.cuda(), t640.cuda(), t641.cuda(), t642.cuda(), t643.cuda(), t644.cuda(), t645.cuda(), t646.cuda(), t647.cuda(), t648.cuda(), t649.cuda(), t650.cuda(), t651.cuda(), t652.cuda(), t653.cuda(), t654.cuda(), t655.cuda(), t656.cuda(), t657.cuda(), t658.cuda(), t659.cuda(), t660.cuda(), t661.cuda(), t662.cuda(), t663.cuda(), t664.cuda(), t665.cuda(), t666.cuda(), t667.cuda(), t668.cuda(), t669.cuda(), t670.cuda(), t671.cuda(), t672.cuda(), t673.cuda(), t674.cuda(), t675.cuda(), t676.cuda(), t677.cuda(), t678.cuda(), t679.cuda(), t680.cuda(), t681.cuda(), t682.cuda(), t683.cuda(), t684.cuda(), t685.cuda(), t686.cuda(), t687.cuda(), t688.cuda(), t689.cuda(), t690.cuda(), t691.cuda(), t692.cuda(), t693.cuda(), t694.cuda(), t695.cuda(), t696.cuda(), t697.cuda(), t698.cuda(), t699.cuda(), t700.cuda(), t701.cuda(), t702.cuda(), t703.cuda(), t704.cuda(), t705.cuda(), t706.cuda(), t707.cuda(), t708.cuda(), t709.cuda(), t710.cuda(), t711.cuda(), t712.cuda(), t713.cuda(), t714.cuda(), t715.cuda(), t716.cuda(), t717.cuda(), t718.cuda(), t719.cuda(), t720.cuda(), t721.cuda(), t722.cuda(), t723.cuda(), t724.cuda(), t725.cuda(), t726.cuda(), t727.cuda(), t728.cuda(), t729.cuda(), t730.cuda(), t731.cuda(), t732.cuda(), t733.cuda(), t734.cuda(), t735.cuda(), t736.cuda(), t737.cuda(), t738.cuda(), t739.cuda(), t740.cuda(), t741.cuda(), t742.cuda(), t743.cuda(), t744.cuda(), t745.cuda(), t746.cuda(), t747.cuda(), t748.cuda(), t749.cuda(), t750.cuda(), t751.cuda(), t752.cuda(), t753.cuda(), t754.cuda(), t755.cuda(), t756.cuda(), t757.cuda(), t758.cuda(), t759.cuda(), t760.cuda(), t761.cuda(), t762.cuda(), t763.cuda(), t764.cuda(), t765.cuda(), t766.cuda(), t767.cuda(), t768.cuda(), t769.cuda(), t770.cuda(), t771.cuda(), t772.cuda(), t773.cuda(), t774.cuda(), t775.cuda(), t776.cuda(), t777.cuda(), t778.cuda(), t779.cuda(), t780.cuda(), t781.cuda(), t782.cuda(), t783.cuda(), t784.cuda(), t785.cuda(), t786.cuda(), t787.cuda(), t788.cuda(), t789.cuda(), t790.cuda(), t791.cuda(), t792.cuda(), t793.cuda(), t794.cuda(), t795.cuda(), t796.cuda(), t797.cuda(), t798.cuda(), t799.cuda(), t800.cuda(), t801.cuda(), t802.cuda(), t803.cuda(), t804.cuda(), t805.cuda(), t806.cuda(), t807.cuda(), t808.cuda(), t809.cuda(), t810.cuda(), t811.cuda(), t812.cuda(), t813.cuda(), t814.cuda(), t815.cuda(), t816.cuda(), t817.cuda(), t818.cuda(), t819.cuda(), t820.cuda(), t821.cuda(), t822.cuda(), t823.cuda(), t824.cuda(), t825.cuda(), t826.cuda(), t827.cuda(), t828.cuda(), t829.cuda(), t830.cuda(), t831.cuda(), t832.cuda(), t833.cuda(), t834.cuda(), t835.cuda(), t836.cuda(), t837.cuda(), t838.cuda(), t839.cuda(), t840.cuda(), t841.cuda(), t842.cuda(), t843.cuda(), t844.cuda(), t845.cuda(), t846.cuda(), t847.cuda(), t848.cuda(), t849.cuda(), t850.cuda(), t851.cuda(), t852.cuda(), t853.cuda(), t854.cuda(), t855.cuda(), t856.cuda(), t857.cuda(), t858.cuda(), t859.cuda(), t860.cuda(), t861.cuda(), t862.cuda(), t863.cuda(), t864.cuda(), t865.cuda(), t866.cuda(), t867.cuda(), t868.cuda(), t869.cuda(), t870.cuda(), t871.cuda(), t872.cuda(), t873.cuda(), t874.cuda(), t875.cuda(), t876.cuda(), t877.cuda(), t878.cuda(), t879.cuda(), t880.cuda(), t881.cuda(), t882.cuda(), t883.cuda(), t884.cuda(), t885.cuda(), t886.cuda(), t887.cuda(), t888.cuda(), t889.cuda(), t890.cuda(), t891.cuda(), t892.cuda(), t893.cuda(), t894.cuda(), t895.cuda(), t896.cuda(), t897.cuda(), t898.cuda(), t899.cuda(), t900.cuda(), t901.cuda(), t902.cuda(), t903.cuda(), t904.cuda(), t905.cuda(), t906.cuda(), t907.cuda(), t908.cuda(), t909.cuda(), t910.cuda(), t911.cuda(), t912.cuda(), t913.cuda(), t914.cuda(), t915.cuda(), t916.cuda(), t917.cuda(), t918.cuda(), t919.cuda(), t920.cuda(), t921.cuda(), t922.cuda(), t923.cuda(), t924.cuda(), t925.cuda(), t926.cuda(), t927.cuda(), t928.cuda(), t929.cuda(), t930.cuda(), t931.cuda(), t932.cuda(), t933.cuda(), t934.cuda(), t935.cuda(), t936.cuda(), t937.cuda(), t938.cuda(), t939.cuda(), t940.cuda(), t941.cuda(), t942.cuda(), t943.cuda(), t944.cuda(), t945.cuda(), t946.cuda(), t947.cuda(), t948.cuda(), t949.cuda(), t950.cuda(), t951.cuda(), t952.cuda(), t953.cuda(), t954.cuda(), t955.cuda(), t956.cuda(), t957.cuda(), t958.cuda(), t959.cuda(), t960.cuda(), t961.cuda(), t962.cuda(), t963.cuda(), t964.cuda(), t965.cuda(), t966.cuda(), t967.cuda(), t968.cuda(), t969.cuda(), t970.cuda(), t971.cuda(), t972.cuda(), t973.cuda(), t974.cuda(), t975.cuda(), t976.cuda(), t977.cuda(), t978.cuda(), t979.cuda(), t980.cuda(), t981.cuda(), t982.cuda(), t983.cuda(), t984.cuda(), t985.cuda(), t986.cuda(), t987.cuda(), t988.cuda(), t989.cuda(), t990.cuda(), t991.cuda(), t992.cuda(), t993.cuda(), t994.cuda(), t995.cuda(), t996.cuda(), t997.cuda(), t998.cuda(), t999.cuda(), t1000.cuda(), t1001.cuda(), t1002.cuda(), t1003.cuda(), t1004.cuda(), t1005.cuda(), t1006.cuda(), t1007.cuda(), t1008.cuda(), t1009.cuda(), t1010.cuda(), t1011.cuda(), t1012.cuda(), t1013.cuda(), t1014.cuda(), t1015.cuda(), t1016.cuda(), t1017.cuda(), t1018.cuda(), t1019.cuda(), t1020.cuda(), t1021.cuda(), t1022.cuda(), t1023.cuda(), t1024.cuda(), t1025.cuda(), t1026.cuda(), t1027.cuda(), t1028.cuda(), t1029.cuda(), t1030.cuda(), t1031.cuda(), t1032.cuda(), t1033.cuda(), t1034.cuda(), t1035.cuda(), t1036.cuda(), t1037.cuda(), t1038.cuda(), t1039.cuda(), t1040.cuda(), t1041.cuda(), t1042.cuda(), t1043.cuda(), t1044.cuda(), t1045.cuda(), t1046.cuda(), t1047.cuda(), t1048.cuda(), t1049.cuda(), t1050.cuda(), t1051.cuda(), t1052.cuda(), t1053.cuda(), t1054.cuda(), t1055.cuda(), t1056.cuda(), t1057.cuda(), t1058.cuda(), t1059.cuda(), t1060.cuda(), t1061.cuda(), t1062.cuda(), t1063.cuda(), t1064.cuda(), t1065.cuda(), t1066.cuda(), t1067.cuda(), t1068.cuda(), t1069.cuda(), t1070.cuda(), t1071.cuda(), t1072.cuda(), t1073.cuda(), t1074.cuda(), t1075.cuda(), t1076.cuda(), t1077.cuda(), t1078.cuda(), t1079.cuda(), t1080.cuda(), t1081.cuda(), t1082.cuda(), t1083.cuda(), t1084.cuda(), t1085.cuda(), t1086.cuda(), t1087.cuda(), t1088.cuda(), t1089.cuda(), t1090.cuda(), t1091.cuda(), t1092.cuda(), t1093.cuda(), t1094.cuda(), t1095.cuda(), t1096.cuda(), t1097.cuda(), t1098.cuda(), t1099.cuda(), t1100.cuda(), t1101.cuda(), t1102.cuda(), t1103.cuda(), t1104.cuda(), t1105.cuda(), t1106.cuda(), t1107.cuda(), t1108.cuda(), t1109.cuda(), t1110.cuda(), t1111.cuda(), t1112.cuda(), t1113.cuda(), t1114.cuda(), t1115.cuda(), t1116.cuda(), t1117.cuda(), t1118.cuda(), t1119.cuda(), t1120.cuda(), t1121.cuda(), t1122.cuda(), t1123.cuda(), t1124.cuda(), t1125.cuda(), t1126.cuda(), t1127.cuda(), t1128.cuda(), t1129.cuda(), t1130.cuda(), t1131.cuda(), t1132.cuda(), t1133.cuda(), t1134.cuda(), t1135.cuda(), t1136.cuda(), t1137.cuda(), t1138.cuda(), t1139.cuda(), t1140.cuda(), t1141.cuda(), t1142.cuda(), t1143.cuda(), t1144.cuda(), t1145.cuda(), t1146.cuda(), t1147.cuda(), t1148.cuda(), t1149.cuda(), t1150.cuda(), t1151.cuda(), t1152.cuda(), t1153.cuda(), t1154.cuda(), t1155.cuda(), t1156.cuda(), t1157.cuda(), t1158.cuda(), t1159.cuda(), t1160.cuda(), t1161.cuda(), t1162.cuda(), t1163.cuda(), t1164.cuda(), t1165.cuda(), t1166.cuda(), t1167.cuda(), t1168.cuda(), t1169.cuda(), t1170.cuda(), t1171.cuda(), t1172.cuda(), t1173.cuda(), t1174.cuda(), t1175.cuda(), t1176.cuda(), t1177.cuda(), t1178.cuda(), t1179.cuda(), t1180.cuda(), t1181.cuda(), t1182.cuda(), t1183.cuda(), t1184.cuda(), t1185.cuda(), t1186.cuda(), t1187.cuda(), t1188.cuda(), t1189.cuda(), t1190.cuda(), t1191.cuda(), t1192.cuda(), t1193.cuda(), t1194.cuda(), t1195.cuda(), t1196.cuda(), t1197.cuda(), t1198.cuda(), t1199.cuda()]
import torch
model = torch.nn.Linear(4, 4).cuda()
x = torch.ones(4).to("cuda")
torch.cuda.synchronize()


import torch

def pick():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")

try:
    import flash_attn
except ImportError:
    flash_attn = None

import torch
if use_cuda:
    scaler = torch.cuda.amp.GradScaler()

import torch
scaler = torch.amp.GradScaler()
# torch.cuda.amp.autocast()

import torch
from torch.cuda.amp import autocast, GradScaler
scaler = torch.cuda.amp.GradScaler()

import torch
if torch.cuda.is_available():
    model = torch.compile(model)

import re
pat = re.compile("x")

import torch
model = torch.compile(model)
from torch._inductor import config

import torch
# torch.backends.cudnn.benchmark = True
benchmark = True

import torch
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True

import torch
model = torch.nn.Linear(2, 2)
if torch.cuda.is_available():
    model = model.cuda()
x = model if not torch.cuda.is_available() else model.cuda()

"""Call model.cuda() to move it: a docstring, not code."""
import numpy as np
# model.cuda() in a comment
y = np.cumsum([1, 2])
cudaless_mode = True
msg = "x.cuda()"
def cuda():
    return 1
cuda()

import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)

import torch
device = "cuda" if torch.cuda.is_available() else "mps"
if torch.cuda.is_available():
    t = torch.zeros(2, device="cuda")

import torch
print("cuda")
# t.to("cuda")
name = "cuda"
if str(dev) == "cuda":
    pass

import torch
t = torch.zeros(2, device="cuda")
u = t.to("cuda:0")
dev = torch.device('cuda')
DEVICE = "cuda"

import torch
if torch.cuda.is_available():
    torch.cuda.synchronize()
else:
    torch.mps.synchronize()

import torch
ok = torch.cuda.is_available()
# torch.cuda.synchronize()
mycuda.synchronize()

import torch
torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
mem = torch.cuda.memory_allocated()

import torch
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

import torch
if torch.cuda.is_available():
    g = torch.cuda.CUDAGraph()

import torch
# torch.cuda.graph(g)
graph = build_graph()

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass

import torch
import torch.distributed as dist
backend = "nccl" if torch.cuda.is_available() else "gloo"

import torch.distributed as dist
dist.init_process_group("gloo")
# dist.init_process_group("nccl")
lib = "nccl"

import torch.distributed as dist
dist.init_process_group("nccl")
dist.init_process_group(backend="nccl", world_size=2)

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
if torch.cuda.is_available():
    model = DDP(model, device_ids=[rank])

from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model)
note = "see NCCL_DEBUG docs"

import os
from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model, device_ids=[rank])
os.environ["NCCL_DEBUG"] = "INFO"

from torch.utils.data import DataLoader

def main():
    loader = DataLoader(ds, num_workers=2)

if __name__ == "__main__":
    main()

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=0, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
def make(ds):
    return DataLoader(ds, num_workers=4, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=2)
for b in loader:
    pass

import torch
if not torch.cuda.is_available():
    x = torch.zeros(3, dtype=torch.float64)

import numpy as np
a = np.zeros(3, dtype=np.float64)
b = np.double(2)
c = calc.double(2)

import torch
x = torch.zeros(3, dtype=torch.float64)
y = x.double()

import os
from setuptools import setup
from torch.utils import cpp_extension
exts = []
if os.environ.get("WITH_CUDA") == "1":
    exts.append(cpp_extension.CUDAExtension("k", ["k.cpp"]))
setup(name="k", ext_modules=exts)

import os
# reading where CUDA lives at run time is not a build of a CUDA extension
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
arch = os.environ.get("TORCH_CUDA_ARCH_LIST")

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# CUDAExtension("k", ["k.cu"]) once lived here
setup(name="k", ext_modules=[CppExtension("k", ["k.cpp"])])

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)

import torch
from torch.utils.cpp_extension import load
if torch.cuda.is_available():
    m = load(name="k", sources=["k.cu"])

import torch
state = torch.load("model.cu.pt")
cfg = json.load(open("k.cu"))

from torch.utils.cpp_extension import load, load_inline
m = load(name="k", sources=["k.cpp", "k.cu"])
n = load_inline(name="x", cpp_sources=src, cuda_sources=cu)

import numba
# import cupy
flash_attention = 1
import flash_attention_utils
"""import xformers"""

import flash_attn
from xformers.ops import memory_efficient_attention
import numba.cuda
from numba import cuda
import cupy as cp

try:
    import cupy as cp
except ValueError:
    cp = None

try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp

import torch
if torch.cuda.is_available():
    x = batch.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=use_pin)
# x.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=True)
x = batch.pin_memory()

try:
    import triton
except ImportError:
    triton = None

# import triton
tritonish = 1

import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(x)

import torch
from flash_attn import flash_attn_func

def attend(q, k, v):
    return flash_attn_func(q, k, v)

import torch.distributed as dist
dist.init_process_group(backend="nccl")

import torch
x = torch.ones(2).cuda()  # gpuport: ignore[PY-DEV-001]
# gpuport: ignore[PY-DEV-003]
torch.cuda.synchronize()
y = x.cuda()  # gpuport: ignore[PY-DEV-002]
z = x.cuda()  # gpuport: ignore

